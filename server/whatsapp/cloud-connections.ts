import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { cloudApiMsg } from '../../contract/cloud-api';
import { msg } from '../../contract/messages';
import type { Config } from '../config';
import { acrossAccounts } from '../db/account-scope';
import type { Db } from '../db/client';
import { isDatabaseUnavailable } from '../db/errors';
import { whatsappBusinessAccounts } from '../db/schema';
import { AppError } from '../errors';
import { decryptSecret, encryptSecret } from '../lib/crypto';
import type { Foreground } from '../lib/foreground';
import { linkedImageFetcher } from '../lib/outbound-fetch';
import { CloudApiDriver } from './cloud-api/cloud-driver';
import { GraphClient } from './cloud-api/graph-client';
import { databaseMediaIds } from './cloud-api/shared-media-ids';
import {
  TooManyWebhookEvents,
  verifySignature,
  type WebhookEvent,
  type WebhookPayload,
  webhookEvents,
} from './cloud-api/webhook';
import { type WebhookAccount, WebhookAccounts } from './cloud-api/webhook-accounts';
import { WebhookEventKeys } from './cloud-api/webhook-event-keys';
import type { ConnectionDirectory, ConnectionEntry } from './connection-directory';
import type { Driver } from './driver';

/** A Cloud number's saved Cloud API settings, its secrets encrypted. */
export type CloudAccountRow = typeof whatsappBusinessAccounts.$inferSelect;

/** The Cloud API credentials an account saves (secrets in clear, encrypted here). */
export interface CloudCredentials {
  phoneNumberId: string;
  businessAccountId: string | null;
  appId: string | null;
  accessToken: string;
  /** Absent or empty: the saved app secret is kept (the panel may update the token alone). */
  appSecret?: string;
  displayPhoneNumber: string | null;
}

/**
 * A Cloud number's saved Cloud API settings, or undefined when it has none. By the number's id,
 * unique across accounts (one row per number).
 */
export async function cloudAccount(db: Db, connectionId: string): Promise<CloudAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(acrossAccounts(whatsappBusinessAccounts))
    .where(eq(whatsappBusinessAccounts.connectionId, connectionId))
    .limit(1);
  return row;
}

/** How long a delivery already answered waits for the database to record it, try after try (about 5 minutes). */
const RECORD_RETRY_MS = [500, 1000, 2000, 5000, 15_000, 30_000, 60_000, 60_000, 60_000, 60_000];

export interface CloudConnectionsOptions {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** Webhooks run as foreground work: the chatbot's statements wait for them. */
  foreground?: Foreground;
  /** The accounts' numbers. */
  directory: ConnectionDirectory;
  /** Hands a new driver's events on (the connection manager that owns these connections). */
  attach: (entry: Pick<ConnectionEntry, 'id' | 'userId'>, driver: Driver) => void;
  /** Tells the other processes that a number's credentials changed (they call `forget`). */
  announce?: (connectionId: string) => void;
}

/**
 * The accounts' official Cloud API numbers, owned by the connection manager as the personal numbers
 * are: credentials (encrypted at rest), one driver per number (keyed by `connections.id`), and the
 * webhook that feeds inbound messages and statuses to the drivers — verified by its signature, each
 * event applied once.
 */
export class CloudConnections {
  private readonly drivers = new Map<string, CloudApiDriver>();
  /** Told when a number's driver changes state or its credentials change (the panel's health cache). */
  private readonly changeListeners: Array<(connectionId: string) => void> = [];
  /** Meta's webhooks come in bursts: the account behind a key is kept, not read for each one. */
  private readonly webhookAccounts: WebhookAccounts;
  /** The events taken lately, and their lasting record (each event is applied once). */
  private readonly eventKeys: WebhookEventKeys;
  /** Set while recording event keys fails: deliveries then wait for their record (503 when it fails). */
  private recordingFails = false;
  /** Deliveries answered and still being recorded. */
  private readonly recording = new Set<Promise<void>>();
  /** Downloads a linked image for a driver. */
  private readonly fetchImage: ReturnType<typeof linkedImageFetcher>;

  constructor(private readonly opts: CloudConnectionsOptions) {
    this.fetchImage = linkedImageFetcher({ allowPrivate: opts.config.OUTBOUND_ALLOW_PRIVATE }, opts.log);
    this.eventKeys = new WebhookEventKeys(opts.db, opts.foreground);
    this.webhookAccounts = new WebhookAccounts(opts.db, opts.config.ENCRYPTION_KEY);
  }

  private graph(accessToken: string): GraphClient {
    return new GraphClient({
      baseUrl: this.opts.config.GRAPH_API_URL,
      version: this.opts.config.GRAPH_API_VERSION,
      accessToken,
    });
  }

  /** A driver for credentials not saved yet, to check them (it is attached to nothing). */
  probe(accessToken: string, phoneNumberId: string): CloudApiDriver {
    return new CloudApiDriver(this.graph(accessToken), phoneNumberId, null, null, this.fetchImage);
  }

  private buildDriver(row: CloudAccountRow): CloudApiDriver {
    const driver = new CloudApiDriver(
      this.graph(decryptSecret(this.opts.config.ENCRYPTION_KEY, row.accessToken)),
      row.phoneNumberId,
      row.businessAccountId,
      row.displayPhoneNumber,
      this.fetchImage,
      databaseMediaIds(this.opts.db, row.userId, row.phoneNumberId),
    );
    this.opts.attach({ id: row.connectionId, userId: row.userId }, driver);
    driver.on('connection', () => this.changed(row.connectionId));
    return driver;
  }

  /** A Cloud number's driver, or null when it has no credentials. */
  async driverFor(connectionId: string): Promise<CloudApiDriver | null> {
    const cached = this.drivers.get(connectionId);
    if (cached) return cached;
    const row = await cloudAccount(this.opts.db, connectionId);
    if (!row) return null;
    const driver = this.buildDriver(row);
    this.drivers.set(connectionId, driver);
    return driver;
  }

  /** The driver that sends for a Cloud number: null when it has no credentials or its token is refused. */
  async sender(connectionId: string): Promise<CloudApiDriver | null> {
    const driver = await this.driverFor(connectionId);
    return driver && !driver.tokenInvalid ? driver : null;
  }

  /** Whether a Cloud number can send, without a Graph API call (channel card, campaign dialog). */
  async readiness(
    connectionId: string | undefined,
  ): Promise<{ configured: boolean; ready: boolean; phoneNumber: string | null }> {
    const driver = connectionId ? await this.driverFor(connectionId) : null;
    if (!driver) return { configured: false, ready: false, phoneNumber: null };
    return { configured: true, ready: !driver.tokenInvalid, phoneNumber: driver.status().phoneNumber };
  }

  /** Calls `listener` with the number whose driver changed state or whose credentials changed. */
  onChange(listener: (connectionId: string) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(connectionId: string): void {
    for (const listener of this.changeListeners) listener(connectionId);
  }

  /**
   * Whether another number (of any account) already sends through this phone number id: one number
   * is one sending lane, paced at its Meta tier, so two connections may not share it.
   */
  async phoneNumberTaken(phoneNumberId: string, exceptConnectionId?: string): Promise<boolean> {
    const rows = await this.opts.db
      .select({ connectionId: whatsappBusinessAccounts.connectionId })
      .from(acrossAccounts(whatsappBusinessAccounts))
      .where(
        exceptConnectionId
          ? and(
              eq(whatsappBusinessAccounts.phoneNumberId, phoneNumberId),
              ne(whatsappBusinessAccounts.connectionId, exceptConnectionId),
            )
          : eq(whatsappBusinessAccounts.phoneNumberId, phoneNumberId),
      )
      .limit(1);
    return rows.length > 0;
  }

  /**
   * Saves a Cloud number's credentials, encrypted (a new one also gets its webhook key and verify
   * token), and drops what was built from the old ones. Answers the saved row.
   */
  async saveCredentials(
    entry: Pick<ConnectionEntry, 'id' | 'userId'>,
    credentials: CloudCredentials,
  ): Promise<CloudAccountRow> {
    const key = this.opts.config.ENCRYPTION_KEY;
    const existing = await cloudAccount(this.opts.db, entry.id);
    const values = {
      phoneNumberId: credentials.phoneNumberId,
      businessAccountId: credentials.businessAccountId,
      appId: credentials.appId,
      accessToken: encryptSecret(key, credentials.accessToken),
      appSecret: credentials.appSecret ? encryptSecret(key, credentials.appSecret) : (existing?.appSecret ?? null),
      displayPhoneNumber: credentials.displayPhoneNumber,
      updatedAt: new Date(),
    };
    const [row] = await this.opts.db
      .insert(whatsappBusinessAccounts)
      .values({
        connectionId: entry.id,
        userId: entry.userId,
        ...values,
        webhookKey: randomBytes(16).toString('hex'),
        verifyToken: randomBytes(18).toString('base64url'),
      })
      .onConflictDoUpdate({ target: whatsappBusinessAccounts.connectionId, set: values })
      .returning();
    this.drivers.delete(entry.id);
    this.webhookAccounts.clear();
    this.changed(entry.id);
    this.opts.announce?.(entry.id);
    return row;
  }

  /**
   * A Cloud number removed: its credentials go (its webhook answers 404 from now on), here and
   * everywhere. By the number's id, unique across accounts.
   */
  async removeCredentials(connectionId: string): Promise<void> {
    await this.opts.db
      .delete(acrossAccounts(whatsappBusinessAccounts))
      .where(eq(whatsappBusinessAccounts.connectionId, connectionId));
    this.forget(connectionId);
    this.opts.announce?.(connectionId);
  }

  /**
   * A number's credentials changed in another process: the driver and the webhook secrets built
   * from the old ones go, so the old token is not used and the old app secret not accepted any more.
   */
  forget(connectionId: string): void {
    const had = this.drivers.delete(connectionId);
    this.webhookAccounts.forgetConnection(connectionId);
    if (had) this.changed(connectionId);
  }

  /** Notifications may have been missed: everything built from credentials is read again. */
  forgetAll(): void {
    const numbers = [...this.drivers.keys()];
    this.drivers.clear();
    this.webhookAccounts.clear();
    for (const connectionId of numbers) this.changed(connectionId);
  }

  /** Meta's subscription check: echo `hub.challenge` when the verify token matches. */
  async verifyWebhook(key: string, query: Record<string, string | undefined>): Promise<string> {
    const row = await this.webhookAccounts.get(key, true);
    if (!row) throw new AppError('NOT_FOUND', msg.generic.notFound);
    if (query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== row.verifyToken || !query['hub.challenge']) {
      throw new AppError('FORBIDDEN', 'Verify token inválido.');
    }
    return query['hub.challenge'];
  }

  /**
   * A webhook delivery: the signature over the raw body must match the app secret (no secret, no
   * webhook). Every message and status is applied once, however often Meta repeats it. The answer
   * costs no database read (the account is cached; a signature that fails against the cached
   * secret is checked once more against the stored one, in case it changed in another process)
   * and one shared statement per burst.
   */
  async receiveWebhook(key: string, rawBody: Buffer, signature: string | undefined): Promise<{ applied: number }> {
    // Proved first, outside the foreground: a wrong key or a forged signature holds back no one.
    const row = await this.verifiedAccount(key, rawBody, signature);
    this.opts.foreground?.arrived();
    const work = () => this.applyWebhook(row, rawBody);
    return this.opts.foreground ? this.opts.foreground.run(work) : work();
  }

  /** The account a delivery is for, once its signature checks out against the number's app secret. */
  private async verifiedAccount(key: string, rawBody: Buffer, signature: string | undefined): Promise<WebhookAccount> {
    let row = await this.webhookAccounts.get(key);
    if (!row) throw new AppError('NOT_FOUND', msg.generic.notFound);
    if (row.appSecret && !verifySignature(rawBody, signature, row.appSecret)) {
      row = await this.webhookAccounts.get(key, true);
      if (!row) throw new AppError('NOT_FOUND', msg.generic.notFound);
      if (row.appSecret && !verifySignature(rawBody, signature, row.appSecret)) {
        throw new AppError('FORBIDDEN', 'Assinatura inválida.');
      }
    }
    if (!row.appSecret) throw new AppError('FORBIDDEN', cloudApiMsg.webhookNeedsSecret);
    return row;
  }

  private async applyWebhook(row: WebhookAccount, rawBody: Buffer): Promise<{ applied: number }> {
    let payload: WebhookPayload;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('VALIDATION', msg.validation.invalidRequest);
    }
    let events: WebhookEvent[];
    try {
      events = webhookEvents(payload, row.phoneNumberId);
    } catch (err) {
      if (err instanceof TooManyWebhookEvents) throw new AppError('VALIDATION', cloudApiMsg.webhookTooManyEvents);
      throw err;
    }
    if (!events.length) return { applied: 0 };
    // While the database refuses the records, a delivery is answered only once recorded, so Meta
    // delivers again what could not be (503).
    if (this.recordingFails) return this.recordAndDeliver(row, events);
    // Otherwise Meta gets its answer at once, whatever the database is busy with (an import, a
    // burst of replies): repeats are recognised here, and the events are recorded (the lasting
    // check against repeats, across restarts) and handed to the driver in the background. A message
    // was only ever in this process's memory between the answer and its storage by the chatbot;
    // that is unchanged.
    const fresh = events.filter((e) => this.eventKeys.remember(row.userId, e.key));
    if (fresh.length) {
      const recorded = this.recordInBackground(row, fresh);
      this.recording.add(recorded);
      void recorded.finally(() => this.recording.delete(recorded));
    }
    return { applied: fresh.length };
  }

  /** Resolves once the deliveries answered so far are recorded and handed to their drivers. */
  async settled(): Promise<void> {
    while (this.recording.size) await Promise.all([...this.recording]);
  }

  /** The memory of recent event keys, for tests and the bench. */
  get recentEventKeyMemory(): { keys: number; bytes: number } {
    return this.eventKeys.memory;
  }

  /** Records the events' keys and hands the new ones to the number's driver, in order. */
  private async recordAndDeliver(
    { userId, connectionId }: Pick<WebhookAccount, 'userId' | 'connectionId'>,
    events: WebhookEvent[],
  ): Promise<{ applied: number }> {
    let freshKeys: Set<string>;
    try {
      freshKeys = await this.eventKeys.record(
        userId,
        events.map((e) => e.key),
      );
    } catch (err) {
      if (isDatabaseUnavailable(err)) this.recordingFails = true;
      throw err;
    }
    this.recordingFails = false;
    const applied = freshKeys.size;
    const driver = await this.driverFor(connectionId);
    for (const event of events) {
      this.eventKeys.remember(userId, event.key);
      if (!freshKeys.delete(event.key)) continue;
      driver?.receive(event);
    }
    return { applied };
  }

  /** A delivery already answered waits for the database to come back (about 5 minutes) before it is given up. */
  private async recordInBackground(account: WebhookAccount, events: WebhookEvent[]): Promise<void> {
    const { userId } = account;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.recordAndDeliver(account, events);
        return;
      } catch (err) {
        if (!isDatabaseUnavailable(err) || attempt >= RECORD_RETRY_MS.length) {
          this.opts.log.error({ err }, 'webhook events could not be recorded');
          for (const e of events) this.eventKeys.forget(userId, e.key);
          return;
        }
        this.opts.log.warn({ err }, 'database unavailable: answered webhook events wait to be recorded');
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS[attempt]));
      }
    }
  }
}
