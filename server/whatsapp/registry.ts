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
 * In-memory state of every account's WhatsApp connection, answered by the 2-second poll without
 * touching the database. Drivers report their state changes here; with several processes, each
 * process also holds the states the other processes' connections publish (whatsapp/manager.ts).
 */
export class ConnectionRegistry {
  private readonly states = new Map<string, WhatsappSession>();

  status(user: Pick<UserRow, 'id' | 'accountType'>): WhatsappSession {
    if (user.accountType === 'demo') return DEMO_CONNECTED;
    return this.states.get(user.id) ?? DISCONNECTED;
  }

  set(userId: string, state: WhatsappSession): void {
    this.states.set(userId, state);
  }

  clear(userId: string): void {
    this.states.delete(userId);
  }

  /** The state of an account's personal connection, as this process knows it (its own or the holder's). */
  state(userId: string): WhatsappSession {
    return this.states.get(userId) ?? DISCONNECTED;
  }

  /** The accounts with a known state (to drop what another process no longer holds). */
  userIds(): string[] {
    return [...this.states.keys()];
  }
}
