import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { msg } from '../../contract/messages';
import type { WhatsappSession } from '../../contract/whatsapp';
import { whatsappMsg } from '../../contract/whatsapp-connection';
import type { ChangeBus } from '../cluster/bus';
import type { ProcessRegistry } from '../cluster/process-registry';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { whatsappConnections } from '../db/schema';
import { AppError } from '../errors';
import type { Foreground } from '../lib/foreground';
import { KeyedBatches } from '../lib/keyed-batches';
import { CloudConnections } from './cloud-connections';
import { ConnectionLeases, parseState } from './connection-leases';
import { type ConnectionCommand, ConnectionRpc, OWNER_UNREACHABLE } from './connection-rpc';
import {
  type Driver,
  DriverError,
  type DriverProvider,
  type PersonalDriverContext,
  type PersonalDriverKind,
  type Receipt,
  type WhatsappEvents,
  type WhatsappSubscriber,
} from './driver';
import type { ConnectionRegistry } from './registry';
import { RemoteDriver } from './remote-driver';
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
  /**
   * The other processes on this PostgreSQL: each personal connection then belongs to one live
   * process (a lease row), its state reaches every process, and commands run on its holder.
   * Absent: this process is alone (the embedded database, most tests).
   */
  cluster?: ConnectionClusterOptions;
}

export interface ConnectionClusterOptions {
  processes: Pick<ProcessRegistry, 'id' | 'owns' | 'liveIds' | 'onChange' | 'isDraining'>;
  bus: ChangeBus;
  /** How often held leases are renewed and free ones looked for (default 5 s). */
  renewMs?: number;
  /** How long a lease lasts without renewal (default 30 s). */
  leaseMs?: number;
  /** How long a command waits for the holder (default 15 s). */
  commandTimeoutMs?: number;
}

/** Bus topics: a connection's state (`userId`, a new line, its JSON: the bus cuts keys at tabs), and a lease let go (`userId`). */
export const STATE_TOPIC = 'connection-state';
export const RELEASED_TOPIC = 'connection-released';
const DEFAULT_RENEW_MS = 5_000;
const DISCONNECTED: WhatsappSession = { phoneNumber: null, isConnected: false, state: 'disconnected', qr: null };

/** How a driver of this process is brought up: a new pairing, a restart, or a takeover from another process. */
type StartMode = 'restore' | 'takeover';

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
  /** With other processes: the leases, the commands, and the connections whose lease this process holds. */
  private readonly leases: ConnectionLeases | null = null;
  private readonly rpc: ConnectionRpc | null = null;
  private readonly held = new Set<string>();
  private readonly adopting = new Map<string, Promise<void>>();
  private readonly unsubscribe: Array<() => void> = [];
  private renewTimer: NodeJS.Timeout | undefined;
  private joined = false;
  private reconciling: Promise<void> | null = null;
  private again: { reload: boolean } | null = null;
  private stateWrites: Promise<unknown> = Promise.resolve();
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
    const cluster = opts.cluster;
    if (cluster) {
      this.leases = new ConnectionLeases(opts.db, cluster.processes, cluster.leaseMs);
      this.rpc = new ConnectionRpc(
        cluster.bus,
        cluster.processes.id,
        (command) => this.runCommand(command),
        cluster.commandTimeoutMs,
      );
      this.unsubscribe.push(
        cluster.bus.subscribe(STATE_TOPIC, (key) => this.remoteState(key)),
        cluster.bus.subscribe(RELEASED_TOPIC, () => this.reconcile()),
        cluster.bus.onReset(() => this.reconcile({ reload: true })),
        cluster.processes.onChange(() => {
          // The first list is this process joining: the states of the others' connections are loaded.
          const first = !this.joined;
          this.joined = true;
          this.reconcile({ reload: first });
        }),
      );
      this.scheduleRenew();
    }
  }

  get defaultKind(): PersonalDriverKind {
    return this.opts.config.WHATSAPP_DRIVER;
  }

  /** The driver that sends for the account: its chosen channel, when that one is ready. */
  async get(userId: string): Promise<Driver | null> {
    const { channel } = await this.accountChannel(userId);
    if (channel === 'cloud') return this.cloud.sender(userId);
    const driver = this.personal.get(userId);
    if (!driver && this.rpc && this.opts.registry.state(userId).isConnected) return this.remoteDriver(userId);
    return driver?.status().isConnected ? driver : null;
  }

  /** The personal-number driver of an account held by this process, connected or not. */
  personalDriver(userId: string): Driver | undefined {
    return this.personal.get(userId);
  }

  /** The state of the account's personal number, wherever its connection is held. */
  personalStatus(userId: string): WhatsappSession | undefined {
    const driver = this.personal.get(userId);
    if (driver || !this.rpc) return driver?.status();
    return this.opts.registry.state(userId);
  }

  /** Starts pairing (QR, or a pairing code when a phone number is given); idempotent while connecting. */
  async connect(
    userId: string,
    opts: { phoneNumber?: string } = {},
    where: 'any' | 'here' = 'any',
  ): Promise<{ pairingCode?: string }> {
    const holder = await this.claim(userId, where);
    if (holder) {
      return ((await this.command(holder, userId, 'connect', [opts])) ?? {}) as { pairingCode?: string };
    }
    let driver: Driver;
    try {
      driver = await this.ensureDriver(userId, this.defaultKind);
    } catch (err) {
      if (this.leases && !this.personal.has(userId) && this.held.delete(userId)) {
        await this.leases.release([userId]).catch(() => undefined);
      }
      throw err;
    }
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
  async disconnect(userId: string, where: 'any' | 'here' = 'any'): Promise<void> {
    if (this.leases && where === 'any' && !this.personal.has(userId)) {
      const holder = await this.leases.owner(userId);
      if (holder && holder !== this.selfId) {
        await this.command(holder, userId, 'disconnect', []);
        return;
      }
    }
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
    if (this.leases) {
      this.held.delete(userId);
      this.publishState(userId, DISCONNECTED);
      await this.stateWrites;
      await this.leases.release([userId]);
    }
  }

  /** Simulator only: a message "arriving" from `from` on the account's simulated number, wherever it is held. */
  async simulateInbound(userId: string, from: string, text: string): Promise<{ providerMessageId: string }> {
    const driver = this.personal.get(userId);
    if (!driver) {
      const holder = this.leases && (await this.leases.owner(userId));
      if (holder && holder !== this.selfId) {
        return (await this.command(holder, userId, 'inject', [from, text])) as { providerMessageId: string };
      }
    }
    if (!driver?.status().isConnected) throw new AppError('CONFLICT', whatsappMsg.notConnected);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('NOT_FOUND', msg.generic.notFound);
    return driver.injectInbound(from, text);
  }

  /** Simulator only: what the account's simulated number sent, oldest first, wherever it is held. */
  async simulatorOutbox(userId: string): Promise<Array<{ to: string; at: string; providerMessageId: string }>> {
    const driver = this.personal.get(userId);
    if (!driver) {
      const holder = this.leases && (await this.leases.owner(userId));
      if (holder && holder !== this.selfId) {
        return (await this.command(holder, userId, 'outbox', [])) as Array<{
          to: string;
          at: string;
          providerMessageId: string;
        }>;
      }
    }
    if (!(driver instanceof SimulatorDriver)) return [];
    return driver.outbox.map((m) => ({ to: m.to, at: m.at.toISOString(), providerMessageId: m.providerMessageId }));
  }

  /** Reconnects the connections that were active when the process last stopped. */
  async restore(): Promise<void> {
    const rows = await this.opts.db
      .select({ userId: whatsappConnections.userId, driver: whatsappConnections.driver })
      .from(whatsappConnections)
      .where(eq(whatsappConnections.active, true));
    let restored = 0;
    for (const row of rows) {
      if (this.closed) return;
      if (this.leases) {
        // With other processes: only the connections this one owns by rendezvous, when their lease is free.
        if (!this.opts.cluster?.processes.owns(row.userId)) continue;
        if (await this.adopt(row.userId, row.driver, 'restore')) restored++;
        continue;
      }
      restored++;
      try {
        const driver = await this.ensureDriver(row.userId, row.driver);
        await driver.connect();
      } catch (err) {
        this.opts.log.warn({ err, userId: row.userId }, 'could not restore a WhatsApp connection');
      }
    }
    if (restored) this.opts.log.info({ count: restored }, 'WhatsApp connections restored');
  }

  /**
   * Closes every socket without logging out, so the next start reconnects without a QR code. With
   * other processes, the leases are then let go and announced: their new owners reconnect at once.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.renewTimer);
    const drivers = [...this.personal.values()];
    this.personal.clear();
    for (const d of drivers) this.leaving.set(d, 'shutdown');
    await Promise.allSettled(drivers.map((d) => d.disconnect({ logout: false })));
    if (!this.leases) return;
    for (const off of this.unsubscribe) off();
    this.rpc?.close();
    await Promise.allSettled([...this.adopting.values()]);
    await this.reconciling;
    await this.stateWrites;
    const released = [...this.held];
    this.held.clear();
    await this.leases
      .release(released)
      .catch((err) => this.opts.log.warn({ err }, 'could not release the WhatsApp connection leases'));
    for (const userId of released) this.opts.cluster?.bus.publish(RELEASED_TOPIC, userId);
  }

  private get selfId(): string {
    return this.opts.cluster?.processes.id ?? '';
  }

  /**
   * Before a connection starts here: takes its lease. Answers null when this process holds it now,
   * or the live process that does (the command goes there). Alone, always null.
   */
  private async claim(userId: string, where: 'any' | 'here'): Promise<string | null> {
    if (!this.leases || this.personal.has(userId) || this.held.has(userId)) return null;
    if (await this.leases.acquire(userId)) {
      this.held.add(userId);
      return null;
    }
    const holder = where === 'any' ? await this.leases.owner(userId) : null;
    if (holder && holder !== this.selfId) return holder;
    // Let go in between: one more try.
    if (await this.leases.acquire(userId)) {
      this.held.add(userId);
      return null;
    }
    throw new AppError('UNAVAILABLE', OWNER_UNREACHABLE);
  }

  private command(holder: string, userId: string, op: string, args: unknown[]): Promise<unknown> {
    if (!this.rpc) throw new AppError('UNAVAILABLE', OWNER_UNREACHABLE);
    return this.rpc.call(holder, { userId, op, args });
  }

  /** A command from another process for a connection this one holds. */
  private async runCommand({ userId, op, args }: ConnectionCommand): Promise<unknown> {
    switch (op) {
      case 'connect':
        return this.connect(userId, (args[0] ?? {}) as { phoneNumber?: string }, 'here');
      case 'disconnect':
        return this.disconnect(userId, 'here');
      case 'inject':
        return this.simulateInbound(userId, String(args[0]), String(args[1]));
      case 'outbox':
        return this.simulatorOutbox(userId);
    }
    const driver = this.personal.get(userId);
    if (!driver) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
    switch (op) {
      case 'send':
        return driver.send(String(args[0]), args[1] as Parameters<Driver['send']>[1], args[2] ?? {});
      case 'typing':
        return driver.typing?.(String(args[0]), Boolean(args[1]));
      case 'checkNumbers':
        return driver.checkNumbers(args[0] as string[]);
      case 'listGroups':
        return driver.listGroups();
      case 'groupParticipants':
        return driver.groupParticipants(String(args[0]));
      default:
        throw new Error(`unknown connection command ${op}`);
    }
  }

  /** The account's connection held by another process, used from here. */
  private remoteDriver(userId: string): RemoteDriver {
    const leases = this.leases as ConnectionLeases;
    return new RemoteDriver(this.defaultKind, {
      state: () => this.personal.get(userId)?.status() ?? this.opts.registry.state(userId),
      call: async (op, args) => {
        const holder = await leases.owner(userId);
        if (!holder) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
        if (holder === this.selfId) return this.runCommand({ userId, op, args });
        return this.command(holder, userId, op, args);
      },
      connect: (opts) => this.connect(userId, opts),
      disconnect: () => this.disconnect(userId),
    });
  }

  /**
   * Brings up a saved connection here when its lease is free: at start-up (`restore`) or when its
   * holder is gone (`takeover`, from the saved credentials: no new QR code). Answers whether it did.
   */
  private async adopt(userId: string, kind: PersonalDriverKind, mode: StartMode): Promise<boolean> {
    if (this.closed || this.personal.has(userId) || this.held.has(userId) || this.adopting.has(userId)) return false;
    const leases = this.leases as ConnectionLeases;
    let adopted = false;
    const run = (async () => {
      if (!(await leases.acquire(userId))) return;
      if (this.closed) {
        await leases.release([userId]);
        return;
      }
      this.held.add(userId);
      adopted = true;
      try {
        const driver = await this.ensureDriver(userId, kind);
        if (mode === 'takeover' && driver instanceof SimulatorDriver) await driver.resume();
        else await driver.connect();
        if (mode === 'takeover') this.opts.log.info({ userId }, 'WhatsApp connection taken over');
      } catch (err) {
        adopted = false;
        this.opts.log.warn({ err, userId }, 'could not restore a WhatsApp connection');
        this.held.delete(userId);
        const driver = this.personal.get(userId);
        this.personal.delete(userId);
        if (driver) {
          this.leaving.set(driver, 'shutdown');
          await driver.disconnect({ logout: false }).catch(() => undefined);
          this.leaving.delete(driver);
        }
        await leases.release([userId]).catch(() => undefined);
      }
    })();
    this.adopting.set(userId, run);
    try {
      await run;
    } finally {
      this.adopting.delete(userId);
    }
    return adopted;
  }

  private scheduleRenew(): void {
    clearTimeout(this.renewTimer);
    if (this.closed) return;
    this.renewTimer = setTimeout(() => {
      void this.renew()
        .catch((err) => this.opts.log.warn({ err }, 'renewing the WhatsApp connection leases failed'))
        .finally(() => this.scheduleRenew());
    }, this.opts.cluster?.renewMs ?? DEFAULT_RENEW_MS);
    this.renewTimer.unref?.();
  }

  /** Renews the held leases (a lease gone to another process closes its socket at once), then looks for free ones. */
  private async renew(): Promise<void> {
    const leases = this.leases as ConnectionLeases;
    const held = [...this.held].filter((userId) => !this.adopting.has(userId));
    if (held.length) {
      const kept = await leases.renew(held);
      for (const userId of held) if (!kept.has(userId) && this.held.has(userId)) this.lost(userId);
    }
    if (this.joined) await this.reconcile();
  }

  /** Another process holds this connection now: the socket closes, without logging out (never two live connections). */
  private lost(userId: string): void {
    this.held.delete(userId);
    const driver = this.personal.get(userId);
    this.opts.log.warn({ userId }, 'WhatsApp connection lease taken by another process; closing this socket');
    if (driver) {
      this.personal.delete(userId);
      this.leaving.set(driver, 'shutdown');
      void driver
        .disconnect({ logout: false })
        .catch(() => undefined)
        .finally(() => this.leaving.delete(driver));
    }
    void this.reconcile({ reload: true });
  }

  /**
   * Loads the states of the connections other processes hold (`reload`), and takes over the free
   * leases of saved connections this process owns by rendezvous. One run at a time; a call during
   * a run runs once more after it.
   */
  private reconcile(opts: { reload?: boolean } = {}): Promise<void> {
    if (!this.leases || this.closed) return Promise.resolve();
    if (this.reconciling) {
      this.again = { reload: Boolean(this.again?.reload || opts.reload) };
      return this.reconciling;
    }
    this.reconciling = (async () => {
      let next: { reload: boolean } | null = { reload: Boolean(opts.reload) };
      while (next && !this.closed) {
        this.again = null;
        try {
          if (next.reload) await this.reloadStates();
          await this.takeOver();
        } catch (err) {
          this.opts.log.warn({ err }, 'looking for WhatsApp connections to take over failed');
        }
        next = this.again;
      }
    })().finally(() => {
      this.reconciling = null;
    });
    return this.reconciling;
  }

  private async reloadStates(): Promise<void> {
    const states = await (this.leases as ConnectionLeases).liveStates();
    const known = new Set<string>();
    for (const { userId, state } of states) {
      if (this.personal.has(userId)) continue;
      known.add(userId);
      this.applyRemote(userId, state);
    }
    for (const userId of this.opts.registry.userIds()) {
      if (!known.has(userId) && !this.personal.has(userId) && !this.starting.has(userId)) {
        this.opts.registry.clear(userId);
      }
    }
  }

  private async takeOver(): Promise<void> {
    const processes = this.opts.cluster?.processes;
    if (!processes || processes.isDraining) return;
    for (const { userId, driver } of await (this.leases as ConnectionLeases).orphans()) {
      if (this.closed) return;
      if (processes.owns(userId)) await this.adopt(userId, driver, 'takeover');
    }
  }

  /** A state another process published for a connection it holds. */
  private remoteState(key: string): void {
    const tab = key.indexOf('\n');
    if (tab < 0) return;
    const userId = key.slice(0, tab);
    const state = parseState(key.slice(tab + 1));
    if (!state || this.personal.has(userId) || this.starting.has(userId)) return;
    this.applyRemote(userId, state);
  }

  private applyRemote(userId: string, state: WhatsappSession): void {
    if (state.state === 'disconnected') this.opts.registry.clear(userId);
    else this.opts.registry.set(userId, state);
  }

  /** The holder tells the others (and the lease row) its connection's new state. */
  private publishState(userId: string, state: WhatsappSession): void {
    const cluster = this.opts.cluster;
    const leases = this.leases;
    if (!cluster || !leases) return;
    cluster.bus.publish(STATE_TOPIC, `${userId}\n${JSON.stringify(state)}`);
    this.stateWrites = this.stateWrites
      .then(() => leases.writeState(userId, state))
      .catch((err) => this.opts.log.warn({ err, userId }, 'could not record a WhatsApp connection state'));
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
    // A socket closed on purpose without logging out (shutdown, a lease handed over): the next holder
    // publishes its own states. A connection replaced by another one of the same number: that one does.
    const replaced = state.state === 'disconnected' && (driver as { closeReason?: string }).closeReason === 'replaced';
    if (this.leaving.get(driver) !== 'shutdown' && !replaced) this.publishState(userId, state);
    if (replaced) {
      this.opts.log.warn({ userId }, 'WhatsApp connection replaced by another connection of the same number');
      this.opts.registry.clear(userId);
      if (this.personal.get(userId) === driver) {
        this.personal.delete(userId);
        // The lease is kept until it lapses: whoever holds the number now is not disturbed.
        this.held.delete(userId);
      }
      return;
    }
    if (state.state === 'disconnected') {
      // A driver only reports 'disconnected' when it gives up (logged out, or no auto-reconnect).
      this.opts.registry.clear(userId);
      if (this.personal.get(userId) === driver && !this.closed) {
        if (this.leases && this.held.delete(userId)) {
          void this.leases.release([userId]).catch((err) => this.opts.log.warn({ err }, 'could not release a lease'));
        }
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
