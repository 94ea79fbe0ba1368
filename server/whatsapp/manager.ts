import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { whatsappConnections } from '../db/schema';
import type { Foreground } from '../lib/foreground';
import { KeyedBatches } from '../lib/keyed-batches';
import { CloudConnections } from './cloud-connections';
import type {
  Driver,
  DriverProvider,
  PersonalDriverContext,
  PersonalDriverKind,
  Receipt,
  WhatsappEvents,
  WhatsappSubscriber,
} from './driver';
import type { ConnectionRegistry } from './registry';
import { DEFAULT_SIMULATOR_TIMINGS, SimulatorDriver, type SimulatorTimings } from './simulator/simulator-driver';

/** Which channel sends for an account, and whether its personal number reconnects by itself. */
export interface AccountChannel {
  channel: 'personal' | 'cloud';
  autoReconnect: boolean;
}

/** Builds the personal-number driver of an account. Baileys is imported only when used. */
export type PersonalDriverFactory = (kind: PersonalDriverKind, ctx: PersonalDriverContext) => Promise<Driver>;

export interface ConnectionManagerOptions {
  config: Config;
  db: Db;
  registry: ConnectionRegistry;
  log: FastifyBaseLogger;
  simulatorTimings?: SimulatorTimings;
  createPersonalDriver?: PersonalDriverFactory;
  /** The account's channel and reconnect choice (its settings); by default the personal number, reconnecting. */
  accountChannel?: (userId: string) => Promise<AccountChannel>;
  /** Who hears every driver's `inbound`, `receipt` and `connection` events (the engines). */
  subscribers?: WhatsappSubscriber[];
  /** Cloud API webhooks run as foreground work: the chatbot's statements wait for them. */
  foreground?: Foreground;
  /** Tells the other processes that an account's Cloud API credentials changed. */
  announceCloudCredentials?: (userId: string) => void;
}

const PERSONAL: AccountChannel = { channel: 'personal', autoReconnect: true };

/**
 * Owns every WhatsApp connection of this process (one driver per account and channel: the personal
 * numbers here, the Cloud API ones in `cloud`) and is the app's DriverProvider. A transport: it
 * connects, sends and passes every driver's events on to the subscribers it was given; what a
 * receipt or an inbound message means is theirs to decide. Personal drivers report their state to
 * the in-memory registry the 2-second poll reads.
 */
export class ConnectionManager implements DriverProvider {
  private readonly personal = new Map<string, Driver>();
  private readonly starting = new Map<string, Promise<Driver>>();
  /** The accounts' Cloud API connections: drivers, credentials and the webhook that feeds them. */
  readonly cloud: CloudConnections;
  private readonly subscribers: WhatsappSubscriber[];
  private readonly accountChannel: (userId: string) => Promise<AccountChannel>;
  /** Drivers this server is disconnecting on purpose, and why (their 'disconnected' is no loss). */
  private readonly leaving = new Map<Driver, 'disconnect' | 'shutdown'>();
  private closed = false;
  /**
   * Receipts go to the subscribers in batches per account, one batch at a time: a webhook of
   * thousands of statuses is a few statements at a time, not thousands at once.
   */
  private readonly receipts = new KeyedBatches<Receipt>(async (userId, receipts) => {
    await this.emit('receipts', { userId, receipts });
  });

  constructor(private readonly opts: ConnectionManagerOptions) {
    this.subscribers = opts.subscribers ?? [];
    this.accountChannel = opts.accountChannel ?? (async () => PERSONAL);
    this.cloud = new CloudConnections({
      config: opts.config,
      db: opts.db,
      log: opts.log,
      foreground: opts.foreground,
      attach: (userId, driver) => this.attach(userId, driver, { personal: false }),
      announce: opts.announceCloudCredentials,
    });
  }

  get defaultKind(): PersonalDriverKind {
    return this.opts.config.WHATSAPP_DRIVER;
  }

  /** The driver that sends for the account: its chosen channel, when that one is ready. */
  async get(userId: string): Promise<Driver | null> {
    const { channel } = await this.accountChannel(userId);
    if (channel === 'cloud') return this.cloud.sender(userId);
    const driver = this.personal.get(userId);
    return driver?.status().isConnected ? driver : null;
  }

  /** The personal-number driver of an account, connected or not. */
  personalDriver(userId: string): Driver | undefined {
    return this.personal.get(userId);
  }

  /** Starts pairing (QR, or a pairing code when a phone number is given); idempotent while connecting. */
  async connect(userId: string, opts: { phoneNumber?: string } = {}): Promise<{ pairingCode?: string }> {
    const driver = await this.ensureDriver(userId, this.defaultKind);
    await this.opts.db
      .insert(whatsappConnections)
      .values({ userId, driver: driver.kind === 'simulator' ? 'simulator' : 'baileys', active: true })
      .onConflictDoUpdate({
        target: whatsappConnections.userId,
        set: { active: true, driver: driver.kind === 'simulator' ? 'simulator' : 'baileys', updatedAt: new Date() },
      });
    return (await driver.connect(opts)) ?? {};
  }

  /** Logs the device out and forgets the connection. */
  async disconnect(userId: string): Promise<void> {
    const driver = this.personal.get(userId);
    await this.opts.db
      .update(whatsappConnections)
      .set({ active: false, phoneNumber: null, updatedAt: new Date() })
      .where(eq(whatsappConnections.userId, userId));
    if (driver) {
      this.personal.delete(userId);
      this.leaving.set(driver, 'disconnect');
      try {
        await driver.disconnect({ logout: true });
      } finally {
        this.leaving.delete(driver);
      }
    }
    this.opts.registry.clear(userId);
  }

  /** Reconnects the connections that were active when the process last stopped. */
  async restore(): Promise<void> {
    const rows = await this.opts.db
      .select({ userId: whatsappConnections.userId, driver: whatsappConnections.driver })
      .from(whatsappConnections)
      .where(eq(whatsappConnections.active, true));
    for (const row of rows) {
      if (this.closed) return;
      try {
        const driver = await this.ensureDriver(row.userId, row.driver);
        await driver.connect();
      } catch (err) {
        this.opts.log.warn({ err, userId: row.userId }, 'could not restore a WhatsApp connection');
      }
    }
    if (rows.length) this.opts.log.info({ count: rows.length }, 'WhatsApp connections restored');
  }

  /** Closes every socket without logging out, so the next start reconnects without a QR code. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const drivers = [...this.personal.values()];
    this.personal.clear();
    for (const d of drivers) this.leaving.set(d, 'shutdown');
    await Promise.allSettled(drivers.map((d) => d.disconnect({ logout: false })));
  }

  private async ensureDriver(userId: string, kind: PersonalDriverKind): Promise<Driver> {
    const existing = this.personal.get(userId);
    if (existing) return existing;
    const pending = this.starting.get(userId);
    if (pending) return pending;
    const start = (async () => {
      const { autoReconnect } = await this.accountChannel(userId);
      const ctx: PersonalDriverContext = {
        userId,
        autoReconnect,
        config: this.opts.config,
        db: this.opts.db,
        log: this.opts.log,
      };
      const driver = await (this.opts.createPersonalDriver ?? defaultPersonalDriverFactory(this.opts.simulatorTimings))(
        kind,
        ctx,
      );
      this.attach(userId, driver);
      this.personal.set(userId, driver);
      return driver;
    })();
    this.starting.set(userId, start);
    try {
      return await start;
    } finally {
      this.starting.delete(userId);
    }
  }

  /** Passes a driver's events on to the subscribers; the personal driver also reports its connection state. */
  attach(userId: string, driver: Driver, opts: { personal: boolean } = { personal: true }): void {
    if (opts.personal) {
      driver.on('connection', (state) => {
        this.onConnection(userId, driver, state);
        const requested = this.leaving.get(driver);
        void this.emit('connection', requested ? { userId, state, requested } : { userId, state });
      });
    }
    driver.on('receipt', (receipt) => this.receipts.add(userId, receipt));
    driver.on('inbound', (message) => void this.emit('inbound', { userId, message, driver }));
  }

  private emit<E extends keyof WhatsappEvents>(event: E, payload: Parameters<WhatsappEvents[E]>[0]): Promise<unknown> {
    const running: Array<Promise<void>> = [];
    for (const subscriber of this.subscribers) {
      const handler = subscriber[event] as ((p: typeof payload) => void | Promise<void>) | undefined;
      if (!handler) continue;
      try {
        const done = handler(payload);
        if (done) {
          running.push(done.catch((err) => this.opts.log.error({ err, event }, 'a WhatsApp event subscriber failed')));
        }
      } catch (err) {
        this.opts.log.error({ err, event }, 'a WhatsApp event subscriber failed');
      }
    }
    return Promise.all(running);
  }

  /** Resolves once the receipts received so far have been handed to every subscriber and dealt with. */
  receiptsSettled(): Promise<void> {
    return this.receipts.idle();
  }

  private onConnection(userId: string, driver: Driver, state: WhatsappSession): void {
    if (this.personal.get(userId) !== driver && this.personal.has(userId)) return;
    if (state.state === 'disconnected') {
      // A driver only reports 'disconnected' when it gives up (logged out, or no auto-reconnect).
      this.opts.registry.clear(userId);
      if (this.personal.get(userId) === driver && !this.closed) {
        this.personal.delete(userId);
        void this.opts.db
          .update(whatsappConnections)
          .set({ active: false, phoneNumber: null, updatedAt: new Date() })
          .where(eq(whatsappConnections.userId, userId))
          .catch((err) => this.opts.log.error({ err }, 'could not record a WhatsApp disconnection'));
      }
      return;
    }
    this.opts.registry.set(userId, state);
    if (state.phoneNumber) {
      void this.opts.db
        .update(whatsappConnections)
        .set({ phoneNumber: state.phoneNumber, updatedAt: new Date() })
        .where(eq(whatsappConnections.userId, userId))
        .catch((err) => this.opts.log.error({ err }, 'could not record a WhatsApp number'));
    }
  }
}

function defaultPersonalDriverFactory(timings = DEFAULT_SIMULATOR_TIMINGS): PersonalDriverFactory {
  return async (kind, ctx) => {
    if (kind === 'simulator') return new SimulatorDriver(ctx.userId, timings);
    // Loaded on first use: the simulator, the tests and the poll never pay for Baileys.
    const { createBaileysDriver } = await import('./baileys/baileys-driver');
    return createBaileysDriver(ctx);
  };
}
