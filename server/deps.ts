import type { FastifySchema } from 'fastify';
import type { TeamRole } from '../contract/auth';
import type { Upload } from '../contract/uploads';
import type { AiResponder } from './chatbot/ai';
import type { ChangeBus } from './cluster/bus';
import type { ProcessRegistry } from './cluster/process-registry';
import type { Config } from './config';
import type { Db } from './db/client';
import type { JobRunner } from './jobs/runner';
import type { AppState } from './lib/app-state';
import type { EmailNotices } from './mail/email-notices';
import type { Mailer } from './mail/mailer';
import type { MediaStore } from './media/store';
import type { AccountChange } from './records/events';
import type { PresenceTracker } from './records/presence-tracker';
import type { Dispatcher } from './sending/dispatcher';
import type { SessionStore } from './sessions/session-store';
import type { FileOpener } from './whatsapp/account-file';
import type { CloudConnections } from './whatsapp/cloud-connections';
import type { DriverProvider } from './whatsapp/driver';
import type { ConnectionManager } from './whatsapp/manager';
import type { ConnectionRegistry } from './whatsapp/registry';
import type { ImageLoader } from './whatsapp/uploaded-image';

/** Content of a saved message, by id (the messages module's, for campaigns). */
export type SavedMessageSource = (
  userId: string,
  id: string,
) => Promise<{ message: string; imageUrl: string | null; mediaUrl?: string | null } | null>;

/** What every module receives. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** What the modules keep in memory (caches, listeners), this app's own: each module reads its slot. */
  state: AppState;
  sessions: SessionStore;
  registry: ConnectionRegistry;
  /** The WhatsApp driver of each account. */
  drivers: DriverProvider;
  /** Owns this process's WhatsApp connections (connect, disconnect, restore, shutdown). */
  connections: ConnectionManager;
  /** The accounts' official Cloud API connections (`connections.cloud`): drivers, credentials, webhook. */
  cloudApi: CloudConnections;
  /** The campaign send loop, and what campaigns read from other modules (uploaded images, saved messages). */
  sending: {
    dispatcher: Dispatcher;
    /** The account's sending settings changed: every process's lane applies them to its next message. */
    settingsChanged: (userId: string) => void;
    loadImage: ImageLoader;
    savedMessage: SavedMessageSource;
  };
  /** The chatbot: its AI (whether this server has one) and, for tests, a wait until inbound messages are handled. */
  chatbot: { ai: AiResponder; idle: () => Promise<void>; configChanged: (userId: string) => void };
  /** Tells every process (this one too) of an account's change; `record` calls it for the events that announce one. */
  announce: (change: AccountChange, userId: string) => void;
  /** E-mail: the transport (SMTP, the log in development, or none) and the notices users get by e-mail. */
  mail: { mailer: Mailer; notices: EmailNotices };
  /** When each account last made a request (online users); fed by the access gate and the session poll. */
  presence: PresenceTracker;
  /**
   * The processes sharing this database: the registry (who is live, who owns which work) and the
   * change bus (what one process changes, the others learn within a second).
   */
  cluster: { processes: ProcessRegistry; bus: ChangeBus };
  /** Work for later: jobs enqueued in the caller's transaction, run by one live process each (server/jobs/). */
  jobs: JobRunner;
  /**
   * Where file bytes live (server/media/store.ts), the account's files as the drivers open them, and
   * a linked file fetched once under the outbound rules into the account's files (uploads/link-file.ts).
   */
  media: { store: MediaStore; openFile: FileOpener; fromLink: (userId: string, link: string) => Promise<Upload> };
  /** Every API route with its declared access, collected as routes register (tests check each one). */
  /** Every /api route as registered: who may call it (`access`, and for customer routes the least `team` role). */
  routes: Array<{ method: string; url: string; access: string; team?: TeamRole; schema?: FastifySchema }>;
}
