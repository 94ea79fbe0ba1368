import type { WhatsappSession } from '../../contract/whatsapp';
import type {
  Driver,
  DriverProvider,
  GroupInfo,
  GroupParticipant,
  NumberCheck,
  OutgoingMessage,
} from '../whatsapp/driver';
import { simulatedNumberExists } from '../whatsapp/simulator/simulator-driver';

/**
 * A small in-test driver: numbers have WhatsApp by the simulator's rule (`simulatedNumberExists`),
 * groups and participants are what the test puts in, and every call is recorded.
 */
export class FakeDriver implements Driver {
  readonly kind = 'simulator' as const;
  connected = true;
  groups: GroupInfo[] = [];
  participants = new Map<string, GroupParticipant[]>();
  checkCalls: string[][] = [];
  failChecks = false;

  async connect() {
    this.connected = true;
    return undefined;
  }
  async disconnect() {
    this.connected = false;
  }
  status(): WhatsappSession {
    return this.connected
      ? { phoneNumber: '+5511900000000', isConnected: true, state: 'connected', qr: null }
      : { phoneNumber: null, isConnected: false, state: 'disconnected', qr: null };
  }
  async send(_to?: string, _message?: OutgoingMessage): Promise<{ providerMessageId: string }> {
    return { providerMessageId: 'fake' };
  }
  async checkNumbers(numbers: string[]): Promise<NumberCheck[]> {
    this.checkCalls.push(numbers);
    if (this.failChecks) throw new Error('provider down');
    return numbers.map((number) => ({ number, exists: simulatedNumberExists(number) }));
  }
  async listGroups() {
    return this.groups;
  }
  async groupParticipants(groupId: string) {
    return this.participants.get(groupId) ?? [];
  }
  on() {}
  off() {}
}

/** Hands each account its own FakeDriver once `connect(userId)` was called. */
export class FakeDrivers implements DriverProvider {
  readonly byUser = new Map<string, FakeDriver>();
  connect(userId: string): FakeDriver {
    const d = new FakeDriver();
    this.byUser.set(userId, d);
    return d;
  }
  async get(userId: string) {
    return this.byUser.get(userId) ?? null;
  }
}

/**
 * A driver that is always connected as `phoneNumber` and finds every number on WhatsApp, with no
 * groups: a test adds only how it sends (and any call it records).
 */
export abstract class ConnectedTestDriver implements Driver {
  abstract readonly kind: Driver['kind'];
  abstract send(to: string, message: OutgoingMessage): Promise<{ providerMessageId: string }>;
  constructor(private readonly phoneNumber = '+5511900000000') {}
  status(): WhatsappSession {
    return { phoneNumber: this.phoneNumber, isConnected: true, state: 'connected', qr: null };
  }
  async connect() {
    return undefined;
  }
  async disconnect() {}
  async checkNumbers(numbers: string[]): Promise<NumberCheck[]> {
    return numbers.map((number) => ({ number, exists: true }));
  }
  async listGroups(): Promise<GroupInfo[]> {
    return [];
  }
  async groupParticipants(): Promise<GroupParticipant[]> {
    return [];
  }
  on() {}
  off() {}
}
