import type { WhatsappSession } from '../../contract/whatsapp';
import type {
  Driver,
  DriverEvents,
  GroupInfo,
  GroupParticipant,
  NumberCheck,
  OutgoingMessage,
  PersonalDriverKind,
  SendOptions,
} from './driver';

/** How a remote driver reaches the process that holds the connection. */
export interface RemotePort {
  state(): WhatsappSession;
  call(op: string, args: unknown[]): Promise<unknown>;
  connect(opts?: { phoneNumber?: string }): Promise<{ pairingCode?: string } | undefined>;
  disconnect(): Promise<void>;
}

/**
 * A personal connection held by another process, seen from this one: its state is the one the
 * holder publishes, and every send or query runs on the holder (ConnectionManager's commands).
 * Events (inbound, receipts) are the holder's to pass on; none arrive here. What it sends crosses
 * the bus, so it carries ids, never bytes: an uploaded image goes as its upload's id.
 */
export class RemoteDriver implements Driver {
  readonly choosesMessageIds = true;
  /** An uploaded image goes by its id: the holder reads the bytes from the database. */
  readonly readsUploads = true;

  constructor(
    readonly kind: PersonalDriverKind,
    private readonly port: RemotePort,
  ) {}

  status(): WhatsappSession {
    return this.port.state();
  }

  connect(opts?: { phoneNumber?: string }): Promise<{ pairingCode?: string } | undefined> {
    return this.port.connect(opts);
  }

  disconnect(): Promise<void> {
    return this.port.disconnect();
  }

  async send(to: string, message: OutgoingMessage, opts: SendOptions = {}): Promise<{ providerMessageId: string }> {
    return (await this.port.call('send', [to, message, opts])) as { providerMessageId: string };
  }

  async typing(to: string, on: boolean): Promise<void> {
    await this.port.call('typing', [to, on]);
  }

  async checkNumbers(numbers: string[]): Promise<NumberCheck[]> {
    return (await this.port.call('checkNumbers', [numbers])) as NumberCheck[];
  }

  async listGroups(): Promise<GroupInfo[]> {
    return (await this.port.call('listGroups', [])) as GroupInfo[];
  }

  async groupParticipants(groupId: string): Promise<GroupParticipant[]> {
    return (await this.port.call('groupParticipants', [groupId])) as GroupParticipant[];
  }

  on<E extends keyof DriverEvents>(_event: E, _listener: DriverEvents[E]): void {}

  off<E extends keyof DriverEvents>(_event: E, _listener: DriverEvents[E]): void {}
}
