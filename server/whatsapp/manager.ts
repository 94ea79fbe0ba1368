import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { SimulatedSend } from '../../contract/whatsapp-connection';
import type { Config } from '../config';
import { acrossAccounts } from '../db/account-scope';
import type { Db } from '../db/client';
import { connections } from '../db/schema';
import { AppError } from '../errors';
import type { Foreground } from '../lib/foreground';
import type { FileOpener } from './account-file';
import { CloudConnections } from './cloud-connections';
import { ConnectionCluster, type ConnectionClusterOptions } from './connection-cluster';
import { runConnectionCommand } from './connection-commands';
import { ConnectionDirectory, type ConnectionEntry } from './connection-directory';
import { OWNER_UNREACHABLE } from './connection-rpc';
import { ConnectionStates, DISCONNECTED } from './connection-states';
import type { Driver, DriverProvider, PersonalDriverKind, WhatsappSubscriber } from './driver';
import { EventFanout } from './event-fanout';
import { type AccountChannel, type PersonalDriverFactory, PersonalDrivers } from './personal-drivers';
import type { ConnectionRegistry } from './registry';
import type { SimulatedContent, SimulatedRestriction, SimulatorTimings } from './simulator/simulator-driver';
import { SimulatorHooks } from './simulator/simulator-hooks';
import type { ImageLoader } from './uploaded-image';

export type { ConnectionClusterOptions } from './connection-cluster';
export { RELEASED_TOPIC, STATE_TOPIC } from './connection-states';
export type { AccountChannel, PersonalDriverFactory } from './personal-drivers';

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
  /** Opens one of an account's files: a file send handed over by another process names it by id. */
  openFile?: FileOpener;
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

const PERSONAL: AccountChannel = { channel: 'personal', autoReconnect: true };

/**
 * Owns every WhatsApp connection of this process (one driver per number: the personal numbers in
 * `drivers`, the Cloud API ones in `cloud`) and is the app's DriverProvider. A transport: it
 * connects, sends and passes every driver's events on to the subscribers it was given
 * (event-fanout.ts), with the account and the number they came from; what a receipt or an inbound
 * message means is theirs to decide. Personal drivers report their state to the in-memory registry
 * the 2-second poll reads, and with other processes to them (connection-states.ts); each personal
 * connection is then held by one process (connection-cluster.ts). Everything inside is keyed by
 * number (`connections.id`); the account-level calls (`get`, `connect`, `disconnect`…) act on the
 * number the spec's routes mean (ConnectionDirectory.primary).
 */
export class ConnectionManager implements DriverProvider {
  /** The accounts' Cloud API connections: drivers, credentials and the webhook that feeds them. */
  readonly cloud: CloudConnections;
  /** The accounts' numbers: which is whose, the default, the primary of each kind. */
  readonly directory: ConnectionDirectory;
  private readonly accountChannel: (userId: string) => Promise<AccountChannel>;
  private readonly fanout: EventFanout;
  private readonly drivers: PersonalDrivers;
  private readonly states: ConnectionStates;
  /** With other processes: the leases and the commands. */
  private readonly cluster: ConnectionCluster | null = null;
  private readonly simulator: SimulatorHooks;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly opts: ConnectionManagerOptions) {
    this.fanout = new EventFanout(opts.subscribers ?? [], opts.log);
    this.accountChannel = opts.accountChannel ?? (async () => PERSONAL);
    this.directory = opts.directory ?? new ConnectionDirectory(opts.db);
    this.drivers = new PersonalDrivers({
      config: opts.config,
      db: opts.db,
      log: opts.log,
      registry: opts.registry,
      store: this.directory.store,
      accountChannel: this.accountChannel,
      createPersonalDriver: opts.createPersonalDriver,
      simulatorTimings: opts.simulatorTimings,
      attach: (entry, driver) => this.attach(entry, driver),
      publish: (entry, state) => this.states.publish(entry, state),
      gaveUp: (id) => this.cluster?.releaseHeld(id),
      replaced: (id) => this.cluster?.forget(id),
    });
    const cluster = opts.cluster;
    const leasesOf = () => (this.cluster as ConnectionCluster).leases;
    this.states = new ConnectionStates(
      opts.registry,
      opts.log,
      this.drivers,
      cluster && {
        bus: cluster.bus,
        get leases() {
          return leasesOf();
        },
      },
    );
    this.cloud = new CloudConnections({
      config: opts.config,
      db: opts.db,
      log: opts.log,
      foreground: opts.foreground,
      directory: this.directory,
      attach: (entry, driver) => this.attach(entry, driver, { personal: false }),
      announce: opts.announceCloudCredentials,
    });
    this.simulator = new SimulatorHooks({
      directory: this.directory,
      local: (id) => this.drivers.get(id),
      holderElsewhere: async (id) => (this.cluster ? this.cluster.holderElsewhere(id) : null),
      command: (holder, id, op, args) => this.command(holder, id, op, args),
    });
    // The poll answers for the account's primary personal number: kept current as numbers change.
    this.unsubscribe.push(this.directory.onChange((userId) => void this.refreshPrimary(userId)));
    if (cluster) {
      this.cluster = new ConnectionCluster(cluster, {
        db: opts.db,
        log: opts.log,
        registry: opts.registry,
        drivers: this.drivers,
        states: this.states,
        runCommand: (command) =>
          runConnectionCommand(
            {
              directory: this.directory,
              drivers: this.drivers,
              simulator: this.simulator,
              loadImage: opts.loadImage,
              openFile: opts.openFile,
              connect: (entry, o) => this.connectNumber(entry, o, 'here'),
              disconnect: (entry) => this.disconnectNumber(entry, 'here'),
            },
            command,
          ),
        refreshPrimary: (userId) => this.refreshPrimary(userId),
        defaultKind: () => this.defaultKind,
      });
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
    const driver = this.drivers.get(entry.id);
    if (!driver && this.cluster && this.opts.registry.state(entry.id).isConnected) {
      return this.cluster.remoteDriver(entry, {
        state: () => this.numberStatus(entry.id),
        connect: (opts) => this.connectNumber(entry, opts),
        disconnect: () => this.disconnectNumber(entry),
      });
    }
    return driver?.status().isConnected ? driver : null;
  }

  /** The personal-number driver of a number held by this process, connected or not. */
  personalDriver(connectionId: string): Driver | undefined {
    return this.drivers.get(connectionId);
  }

  /** The state of a personal number, wherever its connection is held. */
  numberStatus(connectionId: string): WhatsappSession {
    return this.drivers.get(connectionId)?.status() ?? this.opts.registry.state(connectionId);
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
    const holder = this.cluster ? await this.cluster.claim(entry, where) : null;
    if (holder) {
      return ((await this.command(holder, id, 'connect', [opts])) ?? {}) as { pairingCode?: string };
    }
    let driver: Driver;
    try {
      driver = await this.drivers.ensure(entry, this.defaultKind);
    } catch (err) {
      if (this.cluster && !this.drivers.has(id) && this.cluster.forget(id)) {
        await this.cluster.leases.release([id]).catch(() => undefined);
      }
      throw err;
    }
    await this.directory.store.recordPairing(this.opts.db, id, driver.kind === 'simulator' ? 'simulator' : 'baileys');
    return (await driver.connect(opts)) ?? {};
  }

  /** Logs a personal number's device out and forgets its session. */
  async disconnectNumber(entry: Pick<ConnectionEntry, 'id' | 'userId'>, where: 'any' | 'here' = 'any'): Promise<void> {
    const id = entry.id;
    if (this.cluster && where === 'any' && !this.drivers.has(id)) {
      const holder = await this.cluster.holderElsewhere(id);
      if (holder) {
        await this.command(holder, id, 'disconnect', []);
        return;
      }
    }
    const driver = this.drivers.get(id);
    await this.directory.store.recordDisconnected(this.opts.db, id, { unlinked: false });
    await this.drivers.logout(id, driver);
    this.opts.registry.clear(id);
    if (this.cluster) {
      this.cluster.forget(id);
      this.states.publish(entry, DISCONNECTED);
      await this.states.settled();
      await this.cluster.leases.release([id]);
    }
  }

  /** Simulator only: a message "arriving" on one simulated number, wherever it is held. */
  simulateInboundOn(
    connectionId: string,
    from: string,
    text: string,
    content?: SimulatedContent,
  ): Promise<{ providerMessageId: string }> {
    return this.simulator.inboundOn(connectionId, from, text, content);
  }

  /** Simulator only: the next send of one simulated number fails with a WhatsApp restriction, wherever it is held. */
  simulateRestrictionOn(connectionId: string, code: SimulatedRestriction): Promise<void> {
    return this.simulator.restrictionOn(connectionId, code);
  }

  /** Simulator only: what the account's simulated numbers sent, oldest first, wherever each is held. */
  simulatorOutbox(userId: string): Promise<SimulatedSend[]> {
    return this.simulator.outbox(userId);
  }

  /** Reconnects the personal numbers (of every account) that were active when the process last stopped. */
  async restore(): Promise<void> {
    const rows = await this.opts.db
      .select({ id: connections.id, userId: connections.userId, driver: connections.driver })
      .from(acrossAccounts(connections))
      .where(and(eq(connections.kind, 'personal'), eq(connections.active, true)));
    let restored = 0;
    for (const row of rows) {
      if (this.drivers.closed) return;
      if (!row.driver) continue;
      await this.refreshPrimary(row.userId).catch(() => undefined);
      if (this.cluster) {
        // With other processes: only the numbers this one owns by rendezvous, when their lease is free.
        if (!this.cluster.owns(row.id)) continue;
        if (await this.cluster.adopt(row, row.driver, 'restore')) restored++;
        continue;
      }
      restored++;
      try {
        const driver = await this.drivers.ensure(row, row.driver);
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
    this.drivers.closed = true;
    this.cluster?.stop();
    await this.drivers.shutdown();
    for (const off of this.unsubscribe) off();
    await this.cluster?.shutdown();
  }

  private command(holder: string, connectionId: string, op: string, args: unknown[]): Promise<unknown> {
    if (!this.cluster) throw new AppError('UNAVAILABLE', OWNER_UNREACHABLE);
    return this.cluster.command(holder, connectionId, op, args);
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
        this.drivers.connectionChanged(entry, driver, state);
        const requested = this.drivers.leavingOf(driver);
        void this.fanout.emit(
          'connection',
          requested ? { userId, connectionId, state, requested } : { userId, connectionId, state },
        );
      });
    }
    this.fanout.attach(entry, driver);
  }

  /** Resolves once the receipts received so far have been handed to every subscriber and dealt with. */
  receiptsSettled(): Promise<void> {
    return this.fanout.receiptsSettled();
  }
}
