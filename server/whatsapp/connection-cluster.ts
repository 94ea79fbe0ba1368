import type { FastifyBaseLogger } from 'fastify';
import type { ChangeBus } from '../cluster/bus';
import type { ProcessRegistry } from '../cluster/process-registry';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { ConnectionEntry } from './connection-directory';
import { ConnectionLeases } from './connection-leases';
import { type ConnectionCommand, ConnectionRpc, OWNER_UNREACHABLE } from './connection-rpc';
import { type ConnectionStates, RELEASED_TOPIC, STATE_TOPIC } from './connection-states';
import { DriverError, type PersonalDriverKind } from './driver';
import type { PersonalDrivers } from './personal-drivers';
import type { ConnectionRegistry } from './registry';
import { RemoteDriver, type RemotePort } from './remote-driver';
import { SimulatorDriver } from './simulator/simulator-driver';

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

const DEFAULT_RENEW_MS = 5_000;

/** How a driver of this process is brought up: a restart, or a takeover from another process. */
type StartMode = 'restore' | 'takeover';

export interface ClusterHost {
  db: Db;
  log: FastifyBaseLogger;
  registry: ConnectionRegistry;
  drivers: PersonalDrivers;
  states: ConnectionStates;
  /** Runs a command another process sent for a connection this one holds. */
  runCommand: (command: ConnectionCommand) => Promise<unknown>;
  /** Points the poll at the account's primary personal number. */
  refreshPrimary: (userId: string) => Promise<void>;
  defaultKind: () => PersonalDriverKind;
}

/**
 * With other processes on the same PostgreSQL: each personal connection belongs to one live
 * process (a lease row), renewed while it runs and taken over when its holder is gone; commands
 * for a connection held elsewhere go to its holder over the bus.
 */
export class ConnectionCluster {
  readonly leases: ConnectionLeases;
  private readonly rpc: ConnectionRpc;
  /** The connections whose lease this process holds. */
  private readonly held = new Set<string>();
  private readonly adopting = new Map<string, Promise<void>>();
  private readonly unsubscribe: Array<() => void> = [];
  private renewTimer: NodeJS.Timeout | undefined;
  private joined = false;
  private reconciling: Promise<void> | null = null;
  private again: { reload: boolean } | null = null;

  constructor(
    private readonly cluster: ConnectionClusterOptions,
    private readonly host: ClusterHost,
  ) {
    this.leases = new ConnectionLeases(host.db, cluster.processes, cluster.leaseMs);
    this.rpc = new ConnectionRpc(
      cluster.bus,
      cluster.processes.id,
      (command) => host.runCommand(command),
      cluster.commandTimeoutMs,
      (err, detail) =>
        host.log.error({ err, ...detail }, 'a connection command was refused: the bus carries ids, never bytes'),
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

  get selfId(): string {
    return this.cluster.processes.id;
  }

  private get closed(): boolean {
    return this.host.drivers.closed;
  }

  /** Whether this process owns the connection by rendezvous (it restores it when its lease is free). */
  owns(connectionId: string): boolean {
    return this.cluster.processes.owns(connectionId);
  }

  /** This process no longer holds the lease (it lapses, or the caller releases it); answers whether it did. */
  forget(connectionId: string): boolean {
    return this.held.delete(connectionId);
  }

  /** The connection gave up here: its lease, when held, is let go. */
  releaseHeld(connectionId: string): void {
    if (this.held.delete(connectionId)) {
      void this.leases.release([connectionId]).catch((err) => this.host.log.warn({ err }, 'could not release a lease'));
    }
  }

  /** The other live process holding the connection, or null. */
  async holderElsewhere(connectionId: string): Promise<string | null> {
    const holder = await this.leases.owner(connectionId);
    return holder && holder !== this.selfId ? holder : null;
  }

  /**
   * Before a connection starts here: takes its lease. Answers null when this process holds it now,
   * or the live process that does (the command goes there).
   */
  async claim(entry: Pick<ConnectionEntry, 'id' | 'userId'>, where: 'any' | 'here'): Promise<string | null> {
    const id = entry.id;
    if (this.host.drivers.has(id) || this.held.has(id)) return null;
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

  command(holder: string, connectionId: string, op: string, args: unknown[]): Promise<unknown> {
    return this.rpc.call(holder, { connectionId, op, args });
  }

  /** A number's connection held by another process, used from here (its state, pairing and logout are the caller's). */
  remoteDriver(entry: Pick<ConnectionEntry, 'id' | 'userId'>, local: Omit<RemotePort, 'call'>): RemoteDriver {
    const id = entry.id;
    return new RemoteDriver(this.host.defaultKind(), {
      ...local,
      call: async (op, args) => {
        const holder = await this.leases.owner(id);
        if (!holder) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
        if (holder === this.selfId) return this.host.runCommand({ connectionId: id, op, args });
        return this.command(holder, id, op, args);
      },
    });
  }

  /**
   * Brings up a saved connection here when its lease is free: at start-up (`restore`) or when its
   * holder is gone (`takeover`, from the saved credentials: no new QR code). Answers whether it did.
   */
  async adopt(
    entry: Pick<ConnectionEntry, 'id' | 'userId'>,
    kind: PersonalDriverKind,
    mode: StartMode,
  ): Promise<boolean> {
    const id = entry.id;
    const drivers = this.host.drivers;
    if (this.closed || drivers.has(id) || this.held.has(id) || this.adopting.has(id)) return false;
    const leases = this.leases;
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
        const driver = await drivers.ensure(entry, kind);
        if (mode === 'takeover' && driver instanceof SimulatorDriver) await driver.resume();
        else await driver.connect();
        if (mode === 'takeover') this.host.log.info({ connectionId: id }, 'WhatsApp connection taken over');
      } catch (err) {
        adopted = false;
        this.host.log.warn({ err, connectionId: id }, 'could not restore a WhatsApp connection');
        this.held.delete(id);
        await drivers.close(id);
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
        .catch((err) => this.host.log.warn({ err }, 'renewing the WhatsApp connection leases failed'))
        .finally(() => this.scheduleRenew());
    }, this.cluster.renewMs ?? DEFAULT_RENEW_MS);
    this.renewTimer.unref?.();
  }

  /** Renews the held leases (a lease gone to another process closes its socket at once), then looks for free ones. */
  private async renew(): Promise<void> {
    const held = [...this.held].filter((id) => !this.adopting.has(id));
    if (held.length) {
      const kept = await this.leases.renew(held);
      for (const id of held) if (!kept.has(id) && this.held.has(id)) this.lost(id);
    }
    if (this.joined) await this.reconcile();
  }

  /** Another process holds this connection now: the socket closes, without logging out (never two live connections). */
  private lost(connectionId: string): void {
    this.held.delete(connectionId);
    this.host.log.warn({ connectionId }, 'WhatsApp connection lease taken by another process; closing this socket');
    void this.host.drivers.close(connectionId);
    void this.reconcile({ reload: true });
  }

  /**
   * Loads the states of the connections other processes hold (`reload`), and takes over the free
   * leases of saved connections this process owns by rendezvous. One run at a time; a call during
   * a run runs once more after it.
   */
  private reconcile(opts: { reload?: boolean } = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
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
          this.host.log.warn({ err }, 'looking for WhatsApp connections to take over failed');
        }
        next = this.again;
      }
    })().finally(() => {
      this.reconciling = null;
    });
    return this.reconciling;
  }

  private async reloadStates(): Promise<void> {
    for (const userId of await this.host.states.reload()) await this.host.refreshPrimary(userId);
  }

  private async takeOver(): Promise<void> {
    const processes = this.cluster.processes;
    if (processes.isDraining) return;
    for (const row of await this.leases.orphans()) {
      if (this.closed) return;
      if (processes.owns(row.connectionId))
        await this.adopt({ id: row.connectionId, userId: row.userId }, row.driver, 'takeover');
    }
  }

  /** A state another process published for a connection it holds. */
  private remoteState(key: string): void {
    const userId = this.host.states.remote(key);
    if (userId !== undefined && this.host.registry.primaryOf(userId) === undefined) {
      void this.host.refreshPrimary(userId).catch(() => undefined);
    }
  }

  /** No more renewals (the process is stopping). */
  stop(): void {
    clearTimeout(this.renewTimer);
  }

  /** The bus is left, the held leases let go and announced: their new owners reconnect at once. */
  async shutdown(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.rpc.close();
    await Promise.allSettled([...this.adopting.values()]);
    await this.reconciling;
    await this.host.states.settled();
    const released = [...this.held];
    this.held.clear();
    await this.leases
      .release(released)
      .catch((err) => this.host.log.warn({ err }, 'could not release the WhatsApp connection leases'));
    for (const connectionId of released) this.cluster.bus.publish(RELEASED_TOPIC, connectionId);
  }
}
