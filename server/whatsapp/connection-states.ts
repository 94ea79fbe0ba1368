import type { FastifyBaseLogger } from 'fastify';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { ChangeBus } from '../cluster/bus';
import type { ConnectionEntry } from './connection-directory';
import { type ConnectionLeases, parseState } from './connection-leases';
import type { ConnectionRegistry } from './registry';

/**
 * Bus topics: a number's state (its connection id, a new line, its account, a new line, its JSON:
 * the bus cuts keys at tabs), and a lease let go (the connection id).
 */
export const STATE_TOPIC = 'connection-state';
export const RELEASED_TOPIC = 'connection-released';
export const DISCONNECTED: WhatsappSession = { phoneNumber: null, isConnected: false, state: 'disconnected', qr: null };

/** Which connections this process runs itself (their states are its own, never another's word). */
export interface LocalDrivers {
  has(connectionId: string): boolean;
  isStarting(connectionId: string): boolean;
}

/**
 * The states of personal numbers across processes: the holder publishes each new state on the bus
 * and in its lease row; the others apply what they hear to the in-memory registry the 2-second
 * poll reads, and load the lease rows when they may have missed some. Alone, nothing is published.
 */
export class ConnectionStates {
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly log: FastifyBaseLogger,
    private readonly local: LocalDrivers,
    private readonly cluster?: { bus: ChangeBus; leases: ConnectionLeases },
  ) {}

  /** The holder tells the others (and the lease row) its connection's new state. */
  publish(entry: Pick<ConnectionEntry, 'id' | 'userId'>, state: WhatsappSession): void {
    if (!this.cluster) return;
    const { bus, leases } = this.cluster;
    bus.publish(STATE_TOPIC, `${entry.id}\n${entry.userId}\n${JSON.stringify(state)}`);
    this.writes = this.writes
      .then(() => leases.writeState(entry.id, state))
      .catch((err) => this.log.warn({ err, connectionId: entry.id }, 'could not record a WhatsApp connection state'));
  }

  /** Resolves once the states published so far are in their lease rows. */
  settled(): Promise<unknown> {
    return this.writes;
  }

  /**
   * A state another process published for a connection it holds: applied unless this process runs
   * that connection. Answers the account it was applied for.
   */
  remote(key: string): string | undefined {
    const first = key.indexOf('\n');
    const second = first < 0 ? -1 : key.indexOf('\n', first + 1);
    if (second < 0) return undefined;
    const connectionId = key.slice(0, first);
    const userId = key.slice(first + 1, second);
    const state = parseState(key.slice(second + 1));
    if (!state || this.local.has(connectionId) || this.local.isStarting(connectionId)) return undefined;
    this.apply(connectionId, state);
    return userId;
  }

  /**
   * Loads the states of the connections other processes hold, and forgets those no process holds
   * any more. Answers the accounts whose numbers it loaded.
   */
  async reload(): Promise<Set<string>> {
    const states = await (this.cluster as { leases: ConnectionLeases }).leases.liveStates();
    const known = new Set<string>();
    const users = new Set<string>();
    for (const { connectionId, userId, state } of states) {
      if (this.local.has(connectionId)) continue;
      known.add(connectionId);
      users.add(userId);
      this.apply(connectionId, state);
    }
    for (const id of this.registry.connectionIds()) {
      if (!known.has(id) && !this.local.has(id) && !this.local.isStarting(id)) this.registry.clear(id);
    }
    return users;
  }

  private apply(connectionId: string, state: WhatsappSession): void {
    if (state.state === 'disconnected') this.registry.clear(connectionId);
    else this.registry.set(connectionId, state);
  }
}
