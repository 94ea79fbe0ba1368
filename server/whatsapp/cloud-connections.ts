import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { cloudApiMsg } from '../../contract/cloud-api';
import { msg } from '../../contract/messages';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { isDatabaseUnavailable } from '../db/errors';
import { rowsOf } from '../db/rows';
import { whatsappBusinessAccounts } from '../db/schema';
import { AppError } from '../errors';
import { decryptSecret, encryptSecret } from '../lib/crypto';
import type { Foreground } from '../lib/foreground';
import { MicroBatch } from '../lib/micro-batch';
import { linkedImageFetcher } from '../lib/outbound-fetch';
import { CloudApiDriver } from './cloud-api/cloud-driver';
import { GraphClient } from './cloud-api/graph-client';
import {
  TooManyWebhookEvents,
  verifySignature,
  type WebhookEvent,
  type WebhookPayload,
  webhookEvents,
} from './cloud-api/webhook';
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

/** A Cloud number's saved Cloud API settings, or undefined when it has none. */
export async function cloudAccount(db: Db, connectionId: string): Promise<CloudAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsappBusinessAccounts)
    .where(eq(whatsappBusinessAccounts.connectionId, connectionId))
    .limit(1);
  return row;
}

/** How long a webhook key's account (and its decrypted app secret) is used without reading it again. */
const WEBHOOK_ACCOUNT_CACHE_MS = 30_000;

interface WebhookAccount {
  userId: string;
  connectionId: string;
  phoneNumberId: string;
  verifyToken: string;
  appSecret: string | null;
  at: number;
}
/** Event keys this process remembers, to answer a repeated delivery at once: so many, and so many bytes, at most. */
const RECENT_EVENT_KEYS = 100_000;
const RECENT_EVENT_KEY_BYTES = 16 * 1024 * 1024;
/** What one remembered key costs besides its characters (the Set's entry and the string's header). */
const KEY_OVERHEAD_BYTES = 80;
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
  private readonly webhookAccounts = new Map<string, WebhookAccount>();
  /** The event keys of the webhooks of one burst are recorded in one statement. */
  private readonly eventKeys = new MicroBatch<{ userId: string; keys: string[] }, Set<string>>((items) =>
    this.recordEventKeys(items),
  );
  /** The event keys taken lately (`userId`, newline, key), oldest first. */
  private readonly recentEventKeys = new Set<string>();
  private recentEventKeyBytes = 0;
  /** Set while recording event keys fails: deliveries then wait for their record (503 when it fails). */
  private recordingFails = false;
  /** Deliveries answered and still being recorded. */
  private readonly recording = new Set<Promise<void>>();
  /** Downloads a linked image for a driver. */
  private readonly fetchImage: ReturnType<typeof linkedImageFetcher>;

  constructor(private readonly opts: CloudConnectionsOptions) {
    this.fetchImage = linkedImageFetcher({ allowPrivate: opts.config.OUTBOUND_ALLOW_PRIVATE }, opts.log);
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
      .from(whatsappBusinessAccounts)
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

  /** A Cloud number removed: its credentials go (its webhook answers 404 from now on), here and everywhere. */
  async removeCredentials(connectionId: string): Promise<void> {
    await this.opts.db.delete(whatsappBusinessAccounts).where(eq(whatsappBusinessAccounts.connectionId, connectionId));
    this.forget(connectionId);
    this.opts.announce?.(connectionId);
  }

  /**
   * A number's credentials changed in another process: the driver and the webhook secrets built
   * from the old ones go, so the old token is not used and the old app secret not accepted any more.
   */
  forget(connectionId: string): void {
    const had = this.drivers.delete(connectionId);
    for (const [key, account] of this.webhookAccounts) {
      if (account.connectionId === connectionId) this.webhookAccounts.delete(key);
    }
    if (had) this.changed(connectionId);
  }

  /** Notifications may have been missed: everything built from credentials is read again. */
  forgetAll(): void {
    const numbers = [...this.drivers.keys()];
    this.drivers.clear();
    this.webhookAccounts.clear();
    for (const connectionId of numbers) this.changed(connectionId);
  }

  private async accountByWebhookKey(key: string, fresh = false): Promise<WebhookAccount | undefined> {
    if (!/^[0-9a-f]{32}$/.test(key)) return undefined;
    const cached = this.webhookAccounts.get(key);
    if (cached && !fresh && Date.now() - cached.at < WEBHOOK_ACCOUNT_CACHE_MS) return cached;
    const [row] = await this.opts.db
      .select()
      .from(whatsappBusinessAccounts)
      .where(eq(whatsappBusinessAccounts.webhookKey, key))
      .limit(1);
    if (!row) {
      this.webhookAccounts.delete(key);
      return undefined;
    }
    const account: WebhookAccount = {
      userId: row.userId,
      connectionId: row.connectionId,
      phoneNumberId: row.phoneNumberId,
      verifyToken: row.verifyToken,
      appSecret: row.appSecret ? decryptSecret(this.opts.config.ENCRYPTION_KEY, row.appSecret) : null,
      at: Date.now(),
    };
    if (this.webhookAccounts.size >= 10_000) this.webhookAccounts.clear();
    this.webhookAccounts.set(key, account);
    return account;
  }

  /** Meta's subscription check: echo `hub.challenge` when the verify token matches. */
  async verifyWebhook(key: string, query: Record<string, string | undefined>): Promise<string> {
    const row = await this.accountByWebhookKey(key, true);
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
    let row = await this.accountByWebhookKey(key);
    if (!row) throw new AppError('NOT_FOUND', msg.generic.notFound);
    if (row.appSecret && !verifySignature(rawBody, signature, row.appSecret)) {
      row = await this.accountByWebhookKey(key, true);
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
    const fresh = events.filter((e) => this.rememberEventKey(row.userId, e.key));
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

  /** False when this process has taken the event lately. */
  private rememberEventKey(userId: string, key: string): boolean {
    const id = `${userId}\n${key}`;
    if (this.recentEventKeys.has(id)) return false;
    this.recentEventKeys.add(id);
    this.recentEventKeyBytes += keyBytes(id);
    while (this.recentEventKeys.size > RECENT_EVENT_KEYS || this.recentEventKeyBytes > RECENT_EVENT_KEY_BYTES) {
      const oldest = this.recentEventKeys.values().next().value;
      if (oldest === undefined) break;
      this.forgetEventKey(oldest);
    }
    return true;
  }

  private forgetEventKey(id: string): void {
    if (this.recentEventKeys.delete(id)) this.recentEventKeyBytes -= keyBytes(id);
  }

  /** The memory of recent event keys, for tests and the bench. */
  get recentEventKeyMemory(): { keys: number; bytes: number } {
    return { keys: this.recentEventKeys.size, bytes: this.recentEventKeyBytes };
  }

  /** Records the events' keys and hands the new ones to the number's driver, in order. */
  private async recordAndDeliver(
    { userId, connectionId }: Pick<WebhookAccount, 'userId' | 'connectionId'>,
    events: WebhookEvent[],
  ): Promise<{ applied: number }> {
    let freshKeys: Set<string>;
    try {
      freshKeys = await this.eventKeys.add({ userId, keys: events.map((e) => e.key) });
    } catch (err) {
      if (isDatabaseUnavailable(err)) this.recordingFails = true;
      throw err;
    }
    this.recordingFails = false;
    const applied = freshKeys.size;
    const driver = await this.driverFor(connectionId);
    for (const event of events) {
      this.rememberEventKey(userId, event.key);
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
          for (const e of events) this.forgetEventKey(`${userId}\n${e.key}`);
          return;
        }
        this.opts.log.warn({ err }, 'database unavailable: answered webhook events wait to be recorded');
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS[attempt]));
      }
    }
  }

  /**
   * Records the event keys of several webhooks at once; each webhook gets the keys that are new.
   * A key repeated within the burst (Meta delivering one event twice at once) goes to the first.
   */
  private async recordEventKeys(items: Array<{ userId: string; keys: string[] }>): Promise<Array<Set<string>>> {
    const owner = new Map<string, number>();
    const users: string[] = [];
    const keys: string[] = [];
    items.forEach((item, i) => {
      for (const eventKey of item.keys) {
        const id = `${item.userId}\n${eventKey}`;
        if (owner.has(id)) continue;
        owner.set(id, i);
        users.push(item.userId);
        keys.push(eventKey);
      }
    });
    // Two array parameters whatever the burst's size: the query builder's per-value work was a
    // measurable share of a webhook's time on the one thread.
    const record = () =>
      this.opts.db.execute(sql`
        insert into whatsapp_webhook_events (user_id, event_key)
        select * from unnest(${sql.param(users)}::uuid[], ${sql.param(keys)}::text[])
        on conflict do nothing
        returning user_id as "userId", event_key as "key"`);
    // Behind webhooks still being answered, like the chatbot's statements: the batch only grows.
    const fresh = rowsOf<{ userId: string; key: string }>(
      await (this.opts.foreground ? this.opts.foreground.background(record) : record()),
    );
    const out = items.map(() => new Set<string>());
    for (const f of fresh) {
      const i = owner.get(`${f.userId}\n${f.key}`);
      if (i !== undefined) out[i].add(f.key);
    }
    return out;
  }
}

/** Two bytes a character (UTF-16) and the entry's own cost. */
const keyBytes = (id: string) => id.length * 2 + KEY_OVERHEAD_BYTES;
