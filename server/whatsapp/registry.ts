import type { WhatsappSession } from '../../contract/whatsapp';
import type { UserRow } from '../db/schema';

const DISCONNECTED: WhatsappSession = Object.freeze({
  phoneNumber: null,
  isConnected: false,
  state: 'disconnected',
  qr: null,
});

/** Demo accounts show a connected simulated number (they are read-only and cannot connect). */
export const DEMO_SIMULATED_NUMBER = '+55 11 90000-0000';
const DEMO_CONNECTED: WhatsappSession = Object.freeze({
  phoneNumber: DEMO_SIMULATED_NUMBER,
  isConnected: true,
  state: 'connected',
  qr: null,
});

/**
 * In-memory state of every personal number's connection, answered by the 2-second poll without
 * touching the database. Drivers report their state changes here; with several processes, each
 * process also holds the states the other processes' connections publish (whatsapp/manager.ts).
 * The poll answers for the account's primary personal number (the spec's one number): the manager
 * keeps which one that is.
 */
export class ConnectionRegistry {
  private readonly states = new Map<string, WhatsappSession>();
  private readonly primary = new Map<string, string>();

  status(user: Pick<UserRow, 'id' | 'accountType'>): WhatsappSession {
    if (user.accountType === 'demo') return DEMO_CONNECTED;
    const connectionId = this.primary.get(user.id);
    return (connectionId && this.states.get(connectionId)) || DISCONNECTED;
  }

  set(connectionId: string, state: WhatsappSession): void {
    this.states.set(connectionId, state);
  }

  clear(connectionId: string): void {
    this.states.delete(connectionId);
  }

  /** The state of a personal number, as this process knows it (its own or the holder's). */
  state(connectionId: string): WhatsappSession {
    return this.states.get(connectionId) ?? DISCONNECTED;
  }

  /** The numbers with a known state (to drop what another process no longer holds). */
  connectionIds(): string[] {
    return [...this.states.keys()];
  }

  /** Which personal number the account's poll answers for (none: disconnected). */
  setPrimary(userId: string, connectionId: string | null): void {
    if (connectionId) this.primary.set(userId, connectionId);
    else this.primary.delete(userId);
  }

  primaryOf(userId: string): string | undefined {
    return this.primary.get(userId);
  }
}
