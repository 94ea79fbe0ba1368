import type { FastifyBaseLogger } from 'fastify';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { ConnectionEntry } from './connection-directory';
import type { ConnectionStore } from './connection-store';
import type { Driver, PersonalDriverContext, PersonalDriverKind } from './driver';
import type { ConnectionRegistry } from './registry';
import { DEFAULT_SIMULATOR_TIMINGS, SimulatorDriver, type SimulatorTimings } from './simulator/simulator-driver';

/** Which channel sends for an account, and whether its personal number reconnects by itself. */
export interface AccountChannel {
  channel: 'personal' | 'cloud';
  autoReconnect: boolean;
}

/** Builds the personal-number driver of an account. Baileys is imported only when used. */
export type PersonalDriverFactory = (kind: PersonalDriverKind, ctx: PersonalDriverContext) => Promise<Driver>;

/** Why this server is disconnecting a driver on purpose (its 'disconnected' is then no loss). */
export type Leaving = 'disconnect' | 'shutdown';

export interface PersonalDriversOptions {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  registry: ConnectionRegistry;
  store: ConnectionStore;
  accountChannel: (userId: string) => Promise<AccountChannel>;
  createPersonalDriver?: PersonalDriverFactory;
  simulatorTimings?: SimulatorTimings;
  /** Hands a new driver's events on (its connection events come back to `connectionChanged`). */
  attach: (entry: Pick<ConnectionEntry, 'id' | 'userId'>, driver: Driver) => void;
  /** The holder's new state reaches the other processes. */
  publish: (entry: Pick<ConnectionEntry, 'id' | 'userId'>, state: WhatsappSession) => void;
  /** The number's connection gave up here: its lease (when held) is let go. */
  gaveUp: (connectionId: string) => void;
  /** Another connection of the same number replaced this one: its lease is kept until it lapses. */
  replaced: (connectionId: string) => void;
}

/**
 * The personal-number drivers this process runs, one per number: started once however many ask at
 * once, closed with or without logging out, and what their connection states mean for the number's
 * row and the poll's registry.
 */
export class PersonalDrivers {
  private readonly live = new Map<string, Driver>();
  private readonly starting = new Map<string, Promise<Driver>>();
  /** Drivers this server is disconnecting on purpose, and why (their 'disconnected' is no loss). */
  private readonly leaving = new Map<Driver, Leaving>();
  closed = false;

  constructor(private readonly opts: PersonalDriversOptions) {}

  get(connectionId: string): Driver | undefined {
    return this.live.get(connectionId);
  }

  has(connectionId: string): boolean {
    return this.live.has(connectionId);
  }

  isStarting(connectionId: string): boolean {
    return this.starting.has(connectionId);
  }

  /** Why a driver is being disconnected on purpose, if it is. */
  leavingOf(driver: Driver): Leaving | undefined {
    return this.leaving.get(driver);
  }

  /** The number's driver, started here when it has none (one start however many ask at once). */
  async ensure(entry: Pick<ConnectionEntry, 'id' | 'userId'>, kind: PersonalDriverKind): Promise<Driver> {
    const id = entry.id;
    const existing = this.live.get(id);
    if (existing) return existing;
    const pending = this.starting.get(id);
    if (pending) return pending;
    const start = (async () => {
      const { autoReconnect } = await this.opts.accountChannel(entry.userId);
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
      this.opts.attach(entry, driver);
      this.live.set(id, driver);
      return driver;
    })();
    this.starting.set(id, start);
    try {
      return await start;
    } finally {
      this.starting.delete(id);
    }
  }

  /** Closes the number's socket without logging out (a failed start, a lease gone elsewhere). */
  async close(connectionId: string): Promise<void> {
    const driver = this.live.get(connectionId);
    if (!driver) return;
    this.live.delete(connectionId);
    this.leaving.set(driver, 'shutdown');
    try {
      await driver.disconnect({ logout: false }).catch(() => undefined);
    } finally {
      this.leaving.delete(driver);
    }
  }

  /** Logs the number's device out (the driver as it was before the caller's write). */
  async logout(connectionId: string, driver: Driver | undefined): Promise<void> {
    if (!driver) return;
    this.live.delete(connectionId);
    this.leaving.set(driver, 'disconnect');
    try {
      await driver.disconnect({ logout: true });
    } finally {
      this.leaving.delete(driver);
    }
  }

  /** Closes every socket without logging out, so the next start reconnects without a QR code. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const drivers = [...this.live.values()];
    this.live.clear();
    for (const d of drivers) this.leaving.set(d, 'shutdown');
    await Promise.allSettled(drivers.map((d) => d.disconnect({ logout: false })));
  }

  /** A driver's new connection state: the registry, the other processes and the number's row learn it. */
  connectionChanged(entry: Pick<ConnectionEntry, 'id' | 'userId'>, driver: Driver, state: WhatsappSession): void {
    const id = entry.id;
    const { registry, store, db, log } = this.opts;
    if (this.live.get(id) !== driver && this.live.has(id)) return;
    // A socket closed on purpose without logging out (shutdown, a lease handed over): the next holder
    // publishes its own states. A connection replaced by another one of the same number: that one does.
    const replaced = state.state === 'disconnected' && (driver as { closeReason?: string }).closeReason === 'replaced';
    if (this.leaving.get(driver) !== 'shutdown' && !replaced) this.opts.publish(entry, state);
    if (replaced) {
      log.warn({ connectionId: id }, 'WhatsApp connection replaced by another connection of the same number');
      registry.clear(id);
      if (this.live.get(id) === driver) {
        this.live.delete(id);
        // The lease is kept until it lapses: whoever holds the number now is not disturbed.
        this.opts.replaced(id);
      }
      return;
    }
    if (state.state === 'disconnected') {
      // A driver only reports 'disconnected' when it gives up (logged out, or no auto-reconnect).
      registry.clear(id);
      if (this.live.get(id) === driver && !this.closed) {
        this.opts.gaveUp(id);
        this.live.delete(id);
        const unlinked = !this.leaving.has(driver);
        void store
          .recordDisconnected(db, id, { unlinked })
          .catch((err) => log.error({ err }, 'could not record a WhatsApp disconnection'));
      }
      return;
    }
    registry.set(id, state);
    if (state.phoneNumber) {
      void store
        .recordLinked(db, id, state.phoneNumber)
        .catch((err) => log.error({ err }, 'could not record a WhatsApp number'));
    }
  }
}

function defaultPersonalDriverFactory(timings = DEFAULT_SIMULATOR_TIMINGS): PersonalDriverFactory {
  return async (kind, ctx) => {
    if (kind === 'simulator') return new SimulatorDriver(ctx.connectionId, timings);
    // Loaded on first use: the simulator, the tests and the poll never pay for Baileys.
    const { createBaileysDriver } = await import('./baileys/create-driver');
    return createBaileysDriver(ctx);
  };
}
