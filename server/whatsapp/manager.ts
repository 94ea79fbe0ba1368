import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { msg } from '../../contract/messages';
import type { WhatsappSession } from '../../contract/whatsapp';
import { type SimulatedSend, whatsappMsg } from '../../contract/whatsapp-connection';
import type { ChangeBus } from '../cluster/bus';
import type { ProcessRegistry } from '../cluster/process-registry';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { connections } from '../db/schema';
import { AppError } from '../errors';
import type { Foreground } from '../lib/foreground';
import { KeyedBatches } from '../lib/keyed-batches';
import { CloudConnections } from './cloud-connections';
import { ConnectionDirectory, type ConnectionEntry } from './connection-directory';
import { ConnectionLeases, parseState } from './connection-leases';
import { type ConnectionCommand, ConnectionRpc, OWNER_UNREACHABLE } from './connection-rpc';
import {
  type Driver,
  DriverError,
  type DriverProvider,
  type OutgoingMessage,
  type PersonalDriverContext,
  type PersonalDriverKind,
  type Receipt,
  type SendOptions,
  type WhatsappEvents,
  type WhatsappSubscriber,
} from './driver';
import type { ConnectionRegistry } from './registry';
import { RemoteDriver } from './remote-driver';
import {
  DEFAULT_SIMULATOR_TIMINGS,
  type SimulatedRestriction,
  SimulatorDriver,
  type SimulatorTimings,
} from './simulator/simulator-driver';
import { type ImageLoader, withUploadedImage } from './uploaded-image';

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
  /**
   * Reads one of an account's uploaded images: a send that another process hands to this one names
   * its image by upload id, and the bytes are read here (the bus carries ids, never bytes).
   */
  loadImage?: ImageLoader;
  /** Tells the other processes that a Cloud number's credentials changed (its connection id). */
  announceCloudCredentials?: (connectionId: string) => void;
  /** The accounts' numbers (shared with the connections API); by default one of its own. */
  directory?: ConnectionDirectory;
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

/**
 * Bus topics: a number's state (its connection id, a new line, its account, a new line, its JSON:
 * the bus cuts keys at tabs), and a lease let go (the connection id).
 */
export const STATE_TOPIC = 'connection-state';
export const RELEASED_TOPIC = 'connection-released';
const DEFAULT_RENEW_MS = 5_000;
const DISCONNECTED: WhatsappSession = { phoneNumber: null, isConnected: false, state: 'disconnected', qr: null };

/** How a driver of this process is brought up: a new pairing, a restart, or a takeover from another process. */
type StartMode = 'restore' | 'takeover';

const PERSONAL: AccountChannel = { channel: 'personal', autoReconnect: true };

/**
 * Owns every WhatsApp connection of this process (one driver per number: the personal numbers here,
 * the Cloud API ones in `cloud`) and is the app's DriverProvider. A transport: it connects, sends
 * and passes every driver's events on to the subscribers it was given, with the account and the
 * number they came from; what a receipt or an inbound message means is theirs to decide. Personal
 * drivers report their state to the in-memory registry the 2-second poll reads. Everything inside
 * is keyed by number (`connections.id`); the account-level calls (`get`, `connect`, `disconnect`…)
 * act on the number the spec's routes mean (ConnectionDirectory.primary).
 */
export class ConnectionManager implements DriverProvider {
  private readonly personal = new Map<string, Driver>();
  private readonly starting = new Map<string, Promise<Driver>>();
  /** The accounts' Cloud API connections: drivers, credentials and the webhook that feeds them. */
  readonly cloud: CloudConnections;
  private readonly subscribers: WhatsappSubscriber[];
  private readonly accountChannel: (userId: string) => Promise<AccountChannel>;
  /** The accounts' numbers: which is whose, the default, the primary of each kind. */
  readonly directory: ConnectionDirectory;
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
  private readonly receipts = new KeyedBatches<Receipt>(async (key, receipts) => {
    const [userId, connectionId] = key.split('\n');
    await this.emit('receipts', { userId, connectionId, receipts });
  });

  constructor(private readonly opts: ConnectionManagerOptions) {
    this.subscribers = opts.subscribers ?? [];
    this.accountChannel = opts.accountChannel ?? (async () => PERSONAL);
    this.directory = opts.directory ?? new ConnectionDirectory(opts.db);
    this.cloud = new CloudConnections({
      config: opts.config,
      db: opts.db,
      log: opts.log,
      foreground: opts.foreground,
      directory: this.directory,
      attach: (entry, driver) => this.attach(entry, driver, { personal: false }),
      announce: opts.announceCloudCredentials,
    });
    // The poll answers for the account's primary personal number: kept current as numbers change.
    this.unsubscribe.push(this.directory.onChange((userId) => void this.refreshPrimary(userId)));
    const cluster = opts.cluster;
    if (cluster) {
      this.leases = new ConnectionLeases(opts.db, cluster.processes, cluster.leaseMs);
      this.rpc = new ConnectionRpc(
        cluster.bus,
        cluster.processes.id,
        (command) => this.runCommand(command),
        cluster.commandTimeoutMs,
        (err, detail) =>
          opts.log.error({ err, ...detail }, 'a connection command was refused: the bus carries ids, never bytes'),
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

  /** The driver that sends for the account: its default number (its chosen channel), when that one is ready. */
  async get(userId: string): Promise<Driver | null> {
    const { channel } = await this.accountChannel(userId);
    const entry = await this.directory.primary(userId, channel);
    return entry ? this.driverOf(entry) : null;
  }

  /** The driver of one of the account's numbers when it can send, or null (not the account's, removed, offline). */
  async getConnection(userId: string, connectionId: string): Promise<Driver | null> {
    const entry = await this.directory.get(userId, connectionId);
    return entry ? this.driverOf(entry) : null;
  }

  /** The driver of a number when it can send, wherever its connection is held. */
  async driverOf(entry: ConnectionEntry): Promise<Driver | null> {
    if (entry.kind === 'cloud') return this.cloud.sender(entry.id);
    const driver = this.personal.get(entry.id);
    if (!driver && this.rpc && this.opts.registry.state(entry.id).isConnected) return this.remoteDriver(entry);
    return driver?.status().isConnected ? driver : null;
  }

  /** The personal-number driver of a number held by this process, connected or not. */
  personalDriver(connectionId: string): Driver | undefined {
    return this.personal.get(connectionId);
  }

  /** The state of a personal number, wherever its connection is held. */
  numberStatus(connectionId: string): WhatsappSession {
    return this.personal.get(connectionId)?.status() ?? this.opts.registry.state(connectionId);
  }

  /** The state of the account's primary personal number (the spec's one number), when it has one. */
  async personalStatus(userId: string): Promise<WhatsappSession | undefined> {
    const entry = await this.directory.primary(userId, 'personal');
    return entry ? this.numberStatus(entry.id) : undefined;
  }

  /** The spec's connect: pairs the account's primary personal number (added when it has none). */
  async connect(userId: string, opts: { phoneNumber?: string } = {}): Promise<{ pairingCode?: string }> {
    const { entry } = await this.directory.ensurePrimary(userId, 'personal');
    await this.refreshPrimary(userId);
    return this.connectNumber(entry, opts);
  }

  /** The spec's disconnect: logs the account's primary personal number out. */
  async disconnect(userId: string): Promise<void> {
    const entry = await this.directory.primary(userId, 'personal');
    if (entry) await this.disconnectNumber(entry);
  }

  /** Starts pairing a personal number (QR, or a pairing code when a phone number is given); idempotent while connecting. */
  async connectNumber(
    entry: Pick<ConnectionEntry, 'id' | 'userId'>,
    opts: { phoneNumber?: string } = {},
    where: 'any' | 'here' = 'any',
  ): Promise<{ pairingCode?: string }> {
    const id = entry.id;
    const holder = await this.claim(entry, where);
    if (holder) {
      return ((await this.command(holder, id, 'connect', [opts])) ?? {}) as { pairingCode?: string };
    }
    let driver: Driver;
    try {
      driver = await this.ensureDriver(entry, this.defaultKind);
    } catch (err) {
      if (this.leases && !this.personal.has(id) && this.held.delete(id)) {
        await this.leases.release([id]).catch(() => undefined);
      }
      throw err;
    }
    await this.directory.store.recordPairing(this.opts.db, id, driver.kind === 'simulator' ? 'simulator' : 'baileys');
    return (await driver.connect(opts)) ?? {};
  }

  /** Logs a personal number's device out and forgets its session. */
  async disconnectNumber(entry: Pick<ConnectionEntry, 'id' | 'userId'>, where: 'any' | 'here' = 'any'): Promise<void> {
    const id = entry.id;
    if (this.leases && where === 'any' && !this.personal.has(id)) {
      const holder = await this.leases.owner(id);
      if (holder && holder !== this.selfId) {
        await this.command(holder, id, 'disconnect', []);
        return;
      }
    }
    const driver = this.personal.get(id);
    await this.directory.store.recordDisconnected(this.opts.db, id, { unlinked: false });
    if (driver) {
      this.personal.delete(id);
      this.leaving.set(driver, 'disconnect');
      try {
        await driver.disconnect({ logout: true });
      } finally {
        this.leaving.delete(driver);
      }
    }
    this.opts.registry.clear(id);
    if (this.leases) {
      this.held.delete(id);
      this.publishState(entry, DISCONNECTED);
      await this.stateWrites;
      await this.leases.release([id]);
    }
  }

  /** Simulator only: a message "arriving" on one simulated number, wherever it is held. */
  async simulateInboundOn(connectionId: string, from: string, text: string): Promise<{ providerMessageId: string }> {
    const driver = this.personal.get(connectionId);
    if (!driver) {
      const holder = this.leases && (await this.leases.owner(connectionId));
      if (holder && holder !== this.selfId) {
        return (await this.command(holder, connectionId, 'inject', [from, text])) as { providerMessageId: string };
      }
    }
    if (!driver?.status().isConnected) throw new AppError('CONFLICT', whatsappMsg.notConnected);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('NOT_FOUND', msg.generic.notFound);
    return driver.injectInbound(from, text);
  }

  /** Simulator only: the next send of one simulated number fails with a WhatsApp restriction, wherever it is held. */
  async simulateRestrictionOn(connectionId: string, code: SimulatedRestriction): Promise<void> {
    const driver = this.personal.get(connectionId);
    if (!driver) {
      const holder = this.leases && (await this.leases.owner(connectionId));
      if (holder && holder !== this.selfId) {
        await this.command(holder, connectionId, 'restrict', [code]);
        return;
      }
    }
    if (!driver?.status().isConnected) throw new AppError('CONFLICT', whatsappMsg.notConnected);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('NOT_FOUND', msg.generic.notFound);
    driver.restrictNextSend(code);
  }

  /** Simulator only: what the account's simulated numbers sent, oldest first, wherever each is held. */
  async simulatorOutbox(userId: string): Promise<SimulatedSend[]> {
    const all: SimulatedSend[] = [];
    for (const entry of await this.directory.list(userId)) {
      if (entry.kind === 'personal') all.push(...(await this.simulatorOutboxOf(entry.id)));
    }
    return all.sort((a, b) => a.at.localeCompare(b.at));
  }

  private async simulatorOutboxOf(connectionId: string): Promise<SimulatedSend[]> {
    const driver = this.personal.get(connectionId);
    if (!driver) {
      const holder = this.leases && (await this.leases.owner(connectionId));
      if (holder && holder !== this.selfId) {
        return (await this.command(holder, connectionId, 'outbox', [])) as SimulatedSend[];
      }
    }
    if (!(driver instanceof SimulatorDriver)) return [];
    // What was sent, never its bytes (this answer may cross the bus): an image's size stands for them.
    return driver.outbox.map(({ to, at, providerMessageId, message }) => ({
      to,
      at: at.toISOString(),
      providerMessageId,
      kind: message.kind,
      ...(message.kind === 'image' && message.image.data ? { imageBytes: message.image.data.length } : {}),
    }));
  }

  /** Reconnects the personal numbers that were active when the process last stopped. */
  async restore(): Promise<void> {
    const rows = await this.opts.db
      .select({ id: connections.id, userId: connections.userId, driver: connections.driver })
      .from(connections)
      .where(and(eq(connections.kind, 'personal'), eq(connections.active, true)));
    let restored = 0;
    for (const row of rows) {
      if (this.closed) return;
      if (!row.driver) continue;
      await this.refreshPrimary(row.userId).catch(() => undefined);
      if (this.leases) {
        // With other processes: only the numbers this one owns by rendezvous, when their lease is free.
        if (!this.opts.cluster?.processes.owns(row.id)) continue;
        if (await this.adopt(row, row.driver, 'restore')) restored++;
        continue;
      }
      restored++;
      try {
        const driver = await this.ensureDriver(row, row.driver);
        await driver.connect();
      } catch (err) {
        this.opts.log.warn({ err, connectionId: row.id }, 'could not restore a WhatsApp connection');
      }
    }
    if (restored) this.opts.log.info({ count: restored }, 'WhatsApp connections restored');
  }

  /** Points the poll at the account's primary personal number (after its numbers changed). */
  async refreshPrimary(userId: string): Promise<void> {
    const entry = await this.directory.primary(userId, 'personal');
    this.opts.registry.setPrimary(userId, entry?.id ?? null);
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
    for (const off of this.unsubscribe) off();
    if (!this.leases) return;
    this.rpc?.close();
    await Promise.allSettled([...this.adopting.values()]);
    await this.reconciling;
    await this.stateWrites;
    const released = [...this.held];
    this.held.clear();
    await this.leases
      .release(released)
      .catch((err) => this.opts.log.warn({ err }, 'could not release the WhatsApp connection leases'));
    for (const connectionId of released) this.opts.cluster?.bus.publish(RELEASED_TOPIC, connectionId);
  }

  private get selfId(): string {
    return this.opts.cluster?.processes.id ?? '';
  }

  /**
   * Before a connection starts here: takes its lease. Answers null when this process holds it now,
   * or the live process that does (the command goes there). Alone, always null.
   */
  private async claim(entry: Pick<ConnectionEntry, 'id' | 'userId'>, where: 'any' | 'here'): Promise<string | null> {
    const id = entry.id;
    if (!this.leases || this.personal.has(id) || this.held.has(id)) return null;
    if (await this.leases.acquire(id, entry.userId)) {
      this.held.add(id);
      return null;
    }
    const holder = where === 'any' ? await this.leases.owner(id) : null;
    if (holder && holder !== this.selfId) return holder;
    // Let go in between: one more try.
    if (await this.leases.acquire(id, entry.userId)) {
      this.held.add(id);
      return null;
    }
    throw new AppError('UNAVAILABLE', OWNER_UNREACHABLE);
  }

  private command(holder: string, connectionId: string, op: string, args: unknown[]): Promise<unknown> {
    if (!this.rpc) throw new AppError('UNAVAILABLE', OWNER_UNREACHABLE);
    return this.rpc.call(holder, { connectionId, op, args });
  }

  /** A command from another process for a connection this one holds. */
  private async runCommand({ connectionId, op, args }: ConnectionCommand): Promise<unknown> {
    switch (op) {
      case 'connect': {
        const entry = await this.directory.byId(connectionId);
        if (!entry) throw new AppError('NOT_FOUND', msg.generic.notFound);
        return this.connectNumber(entry, (args[0] ?? {}) as { phoneNumber?: string }, 'here');
      }
      case 'disconnect': {
        const entry = await this.directory.byId(connectionId);
        return this.disconnectNumber(entry ?? { id: connectionId, userId: '' }, 'here');
      }
      case 'inject':
        return this.simulateInboundOn(connectionId, String(args[0]), String(args[1]));
      case 'outbox':
        return this.simulatorOutboxOf(connectionId);
      case 'restrict':
        return this.simulateRestrictionOn(connectionId, args[0] as SimulatedRestriction);
    }
    const driver = this.personal.get(connectionId);
    if (!driver) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
    switch (op) {
      case 'send': {
        // An uploaded image came as its id: read for the number's own account, never the caller's word.
        const owner = (await this.directory.byId(connectionId))?.userId;
        const message = args[1] as OutgoingMessage;
        const resolved = await withUploadedImage(message, owner ?? '', owner ? this.opts.loadImage : undefined);
        return driver.send(String(args[0]), resolved, (args[2] ?? {}) as SendOptions);
      }
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

  /** A number's connection held by another process, used from here. */
  private remoteDriver(entry: Pick<ConnectionEntry, 'id' | 'userId'>): RemoteDriver {
    const leases = this.leases as ConnectionLeases;
    const id = entry.id;
    return new RemoteDriver(this.defaultKind, {
      state: () => this.numberStatus(id),
      call: async (op, args) => {
        const holder = await leases.owner(id);
        if (!holder) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
        if (holder === this.selfId) return this.runCommand({ connectionId: id, op, args });
        return this.command(holder, id, op, args);
      },
      connect: (opts) => this.connectNumber(entry, opts),
      disconnect: () => this.disconnectNumber(entry),
    });
  }

  /**
   * Brings up a saved connection here when its lease is free: at start-up (`restore`) or when its
   * holder is gone (`takeover`, from the saved credentials: no new QR code). Answers whether it did.
   */
  private async adopt(
    entry: Pick<ConnectionEntry, 'id' | 'userId'>,
    kind: PersonalDriverKind,
    mode: StartMode,
  ): Promise<boolean> {
    const id = entry.id;
    if (this.closed || this.personal.has(id) || this.held.has(id) || this.adopting.has(id)) return false;
    const leases = this.leases as ConnectionLeases;
    let adopted = false;
    const run = (async () => {
      if (!(await leases.acquire(id, entry.userId))) return;
      if (this.closed) {
        await leases.release([id]);
        return;
      }
      this.held.add(id);
      adopted = true;
      try {
        const driver = await this.ensureDriver(entry, kind);
        if (mode === 'takeover' && driver instanceof SimulatorDriver) await driver.resume();
        else await driver.connect();
        if (mode === 'takeover') this.opts.log.info({ connectionId: id }, 'WhatsApp connection taken over');
      } catch (err) {
        adopted = false;
        this.opts.log.warn({ err, connectionId: id }, 'could not restore a WhatsApp connection');
        this.held.delete(id);
        const driver = this.personal.get(id);
        this.personal.delete(id);
        if (driver) {
          this.leaving.set(driver, 'shutdown');
          await driver.disconnect({ logout: false }).catch(() => undefined);
          this.leaving.delete(driver);
        }
        await leases.release([id]).catch(() => undefined);
      }
    })();
    this.adopting.set(id, run);
    try {
      await run;
    } finally {
      this.adopting.delete(id);
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
    const held = [...this.held].filter((id) => !this.adopting.has(id));
    if (held.length) {
      const kept = await leases.renew(held);
      for (const id of held) if (!kept.has(id) && this.held.has(id)) this.lost(id);
    }
    if (this.joined) await this.reconcile();
  }

  /** Another process holds this connection now: the socket closes, without logging out (never two live connections). */
  private lost(connectionId: string): void {
    this.held.delete(connectionId);
    const driver = this.personal.get(connectionId);
    this.opts.log.warn({ connectionId }, 'WhatsApp connection lease taken by another process; closing this socket');
    if (driver) {
      this.personal.delete(connectionId);
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
    const users = new Set<string>();
    for (const { connectionId, userId, state } of states) {
      if (this.personal.has(connectionId)) continue;
      known.add(connectionId);
      users.add(userId);
      this.applyRemote(connectionId, state);
    }
    for (const id of this.opts.registry.connectionIds()) {
      if (!known.has(id) && !this.personal.has(id) && !this.starting.has(id)) this.opts.registry.clear(id);
    }
    for (const userId of users) await this.refreshPrimary(userId);
  }

  private async takeOver(): Promise<void> {
    const processes = this.opts.cluster?.processes;
    if (!processes || processes.isDraining) return;
    for (const row of await (this.leases as ConnectionLeases).orphans()) {
      if (this.closed) return;
      if (processes.owns(row.connectionId))
        await this.adopt({ id: row.connectionId, userId: row.userId }, row.driver, 'takeover');
    }
  }

  /** A state another process published for a connection it holds. */
  private remoteState(key: string): void {
    const first = key.indexOf('\n');
    const second = first < 0 ? -1 : key.indexOf('\n', first + 1);
    if (second < 0) return;
    const connectionId = key.slice(0, first);
    const userId = key.slice(first + 1, second);
    const state = parseState(key.slice(second + 1));
    if (!state || this.personal.has(connectionId) || this.starting.has(connectionId)) return;
    this.applyRemote(connectionId, state);
    if (this.opts.registry.primaryOf(userId) === undefined) void this.refreshPrimary(userId).catch(() => undefined);
  }

  private applyRemote(connectionId: string, state: WhatsappSession): void {
    if (state.state === 'disconnected') this.opts.registry.clear(connectionId);
    else this.opts.registry.set(connectionId, state);
  }

  /** The holder tells the others (and the lease row) its connection's new state. */
  private publishState(entry: Pick<ConnectionEntry, 'id' | 'userId'>, state: WhatsappSession): void {
    const cluster = this.opts.cluster;
    const leases = this.leases;
    if (!cluster || !leases) return;
    cluster.bus.publish(STATE_TOPIC, `${entry.id}\n${entry.userId}\n${JSON.stringify(state)}`);
    this.stateWrites = this.stateWrites
      .then(() => leases.writeState(entry.id, state))
      .catch((err) =>
        this.opts.log.warn({ err, connectionId: entry.id }, 'could not record a WhatsApp connection state'),
      );
  }

  private async ensureDriver(entry: Pick<ConnectionEntry, 'id' | 'userId'>, kind: PersonalDriverKind): Promise<Driver> {
    const id = entry.id;
    const existing = this.personal.get(id);
    if (existing) return existing;
    const pending = this.starting.get(id);
    if (pending) return pending;
    const start = (async () => {
      const { autoReconnect } = await this.accountChannel(entry.userId);
      const ctx: PersonalDriverContext = {
        userId: entry.userId,
        connectionId: id,
        autoReconnect,
        config: this.opts.config,
        db: this.opts.db,
        log: this.opts.log,
      };
      const driver = await (this.opts.createPersonalDriver ?? defaultPersonalDriverFactory(this.opts.simulatorTimings))(
        kind,
        ctx,
      );
      this.attach(entry, driver);
      this.personal.set(id, driver);
      return driver;
    })();
    this.starting.set(id, start);
    try {
      return await start;
    } finally {
      this.starting.delete(id);
    }
  }

  /** Passes a driver's events on to the subscribers; the personal driver also reports its connection state. */
  attach(
    entry: Pick<ConnectionEntry, 'id' | 'userId'>,
    driver: Driver,
    opts: { personal: boolean } = { personal: true },
  ): void {
    const { id: connectionId, userId } = entry;
    if (opts.personal) {
      driver.on('connection', (state) => {
        this.onConnection(entry, driver, state);
        const requested = this.leaving.get(driver);
        void this.emit(
          'connection',
          requested ? { userId, connectionId, state, requested } : { userId, connectionId, state },
        );
      });
    }
    const batchKey = `${userId}\n${connectionId}`;
    driver.on('receipt', (receipt) => this.receipts.add(batchKey, receipt));
    driver.on('inbound', (message) => void this.emit('inbound', { userId, connectionId, message, driver }));
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

  private onConnection(entry: Pick<ConnectionEntry, 'id' | 'userId'>, driver: Driver, state: WhatsappSession): void {
    const id = entry.id;
    if (this.personal.get(id) !== driver && this.personal.has(id)) return;
    // A socket closed on purpose without logging out (shutdown, a lease handed over): the next holder
    // publishes its own states. A connection replaced by another one of the same number: that one does.
    const replaced = state.state === 'disconnected' && (driver as { closeReason?: string }).closeReason === 'replaced';
    if (this.leaving.get(driver) !== 'shutdown' && !replaced) this.publishState(entry, state);
    if (replaced) {
      this.opts.log.warn({ connectionId: id }, 'WhatsApp connection replaced by another connection of the same number');
      this.opts.registry.clear(id);
      if (this.personal.get(id) === driver) {
        this.personal.delete(id);
        // The lease is kept until it lapses: whoever holds the number now is not disturbed.
        this.held.delete(id);
      }
      return;
    }
    if (state.state === 'disconnected') {
      // A driver only reports 'disconnected' when it gives up (logged out, or no auto-reconnect).
      this.opts.registry.clear(id);
      if (this.personal.get(id) === driver && !this.closed) {
        if (this.leases && this.held.delete(id)) {
          void this.leases.release([id]).catch((err) => this.opts.log.warn({ err }, 'could not release a lease'));
        }
        this.personal.delete(id);
        const unlinked = !this.leaving.has(driver);
        void this.directory.store
          .recordDisconnected(this.opts.db, id, { unlinked })
          .catch((err) => this.opts.log.error({ err }, 'could not record a WhatsApp disconnection'));
      }
      return;
    }
    this.opts.registry.set(id, state);
    if (state.phoneNumber) {
      void this.directory.store
        .recordLinked(this.opts.db, id, state.phoneNumber)
        .catch((err) => this.opts.log.error({ err }, 'could not record a WhatsApp number'));
    }
  }
}

function defaultPersonalDriverFactory(timings = DEFAULT_SIMULATOR_TIMINGS): PersonalDriverFactory {
  return async (kind, ctx) => {
    if (kind === 'simulator') return new SimulatorDriver(ctx.connectionId, timings);
    // Loaded on first use: the simulator, the tests and the poll never pay for Baileys.
    const { createBaileysDriver } = await import('./baileys/baileys-driver');
    return createBaileysDriver(ctx);
  };
}
