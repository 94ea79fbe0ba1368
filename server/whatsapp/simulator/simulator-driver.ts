import { createHash, randomBytes } from 'node:crypto';
import { formatPhone, phoneDigits } from '../../../contract/phone';
import type { WhatsappSession } from '../../../contract/whatsapp';
import type { simulatedRestrictions } from '../../../contract/whatsapp-connection';
import {
  type Driver,
  DriverError,
  type GroupInfo,
  type GroupParticipant,
  type InboundMessage,
  type NumberCheck,
  type OutgoingMessage,
  type Receipt,
  type SendOptions,
} from '../driver';
import { DriverEmitter } from '../driver-emitter';
import { MenuMemory } from '../numbered-menu';

export interface SimulatorTimings {
  /** How long the fake QR code stays on screen before the "scan" happens. */
  qrMs: number;
  /** Connected, number not yet known ('Detectando número...'). */
  detectMs: number;
  deliveredMs: number;
  readMs: number;
}

export const DEFAULT_SIMULATOR_TIMINGS: SimulatorTimings = {
  qrMs: 3000,
  detectMs: 4500,
  deliveredMs: 1000,
  readMs: 3000,
};

/**
 * Which numbers the simulated WhatsApp knows, the one rule of the simulator and of the tests' fake
 * driver: every number of ten digits or more except those ending in 0 (a send to a number ending
 * in 0 fails for good, as to a number without WhatsApp).
 */
export function simulatedNumberExists(number: string): boolean {
  const d = phoneDigits(number);
  return d.length >= 10 && !d.endsWith('0');
}

const SAMPLE_GROUPS = [
  { id: '120363000000000001@g.us', name: 'Clientes VIP (simulado)', membersCount: 4 },
  { id: '120363000000000002@g.us', name: 'Promoções (simulado)', membersCount: 6 },
  { id: '120363000000000003@g.us', name: 'Equipe (simulado)', membersCount: 3 },
];

/**
 * What a send meets instead of going out normally (fault injection for tests and demos):
 * `fail`: it fails with the error and nothing goes out; `lose-answer`: the message goes out (and
 * its receipts follow) but the send still fails with the error, as when the answer is lost.
 */
export type SimulatorSendFault = { kind: 'fail' | 'lose-answer'; error: Error };

/** The restrictions the simulator can put on a number (contract/whatsapp-connection.ts). */
export type SimulatedRestriction = (typeof simulatedRestrictions)[number];

/** What WhatsApp answers a send from a restricted number, as the drivers report it. */
const RESTRICTION_TEXTS: Record<SimulatedRestriction, string> = {
  '463': 'Número temporariamente restrito pelo WhatsApp (463)',
  '131048': 'Limite de spam atingido: o WhatsApp restringiu o número (131048)',
};

/**
 * What a simulated message carries besides its text: a file already waiting in the media store
 * (`source.via` 'stored': the simulated phone's), a location, a contact card, a reaction, a reply.
 * Plain JSON: it crosses the bus to the process holding the number.
 */
export type SimulatedContent = Pick<
  InboundMessage,
  'media' | 'location' | 'contactCard' | 'reaction' | 'replyTo' | 'unsupported'
>;

/**
 * One message the simulated number sent. A file keeps what describes it (never `open`, never the
 * bytes): `read` is what its stream gave, counted and hashed as it was read.
 */
export interface SimulatedOutboxEntry {
  to: string;
  message: OutgoingMessage;
  providerMessageId: string;
  at: Date;
  read?: { bytes: number; sha256: string };
}

/** Faults the simulated number injects; all off by default. */
export interface SimulatorFaults {
  /** The fault of each send, or null; `attempt` counts the sends to `to` while this is set, this one included. */
  send?: (to: string, attempt: number) => SimulatorSendFault | null;
  /** How many times each receipt arrives (WhatsApp repeats receipts). */
  receiptCopies?: number;
  /** Receipts of a message arrive read first, then delivered, then sent. */
  reverseReceipts?: boolean;
}

/**
 * The simulator keeps its most recent sends and typing indicators (a long demo campaign must not
 * grow memory without end): at most this many of each per number, about 250 KB with their messages,
 * so that 200 connected numbers stay within the 2 MB each that bench/memory.bench.ts budgets.
 */
const OUTBOX_MAX = 1_000;

/** A stable fake number per account: +55 11 9XXXX-XXXX. */
export function simulatedNumber(userId: string): string {
  const n = Number.parseInt(createHash('sha256').update(userId).digest('hex').slice(0, 8), 16) % 100_000_000;
  return formatPhone(`55119${String(n).padStart(8, '0')}`.slice(0, 13));
}

/**
 * The simulated WhatsApp's side of the links: one live connection per number, as on WhatsApp,
 * where a second connection of the same account makes the older one drop ("replaced", close code
 * 440). Shared by every simulated driver of this Node process, so tests that run several apps in
 * one process see a second live connection of a number as a replacement.
 */
export class SimulatedWhatsapp {
  private readonly live = new Map<string, SimulatorDriver>();
  /** How many connections were dropped because a second one of the same number opened. */
  replacedCount = 0;

  /** `driver` opened its number's connection: an older live one is replaced. */
  opened(number: string, driver: SimulatorDriver): void {
    const previous = this.live.get(number);
    this.live.set(number, driver);
    if (previous && previous !== driver) {
      this.replacedCount++;
      previous.replaced();
    }
  }

  closed(number: string, driver: SimulatorDriver): void {
    if (this.live.get(number) === driver) this.live.delete(number);
  }

  /** The driver whose connection of `number` is live, if any. */
  liveDriver(number: string): SimulatorDriver | undefined {
    return this.live.get(number);
  }
}

export const simulatedWhatsapp = new SimulatedWhatsapp();

/**
 * The built-in fake WhatsApp: a short visible QR step, a stable number, delivered and read
 * receipts after short delays, deterministic number checks (a number ending in 0 has no WhatsApp)
 * and groups, and inbound messages injected by tests and demos.
 */
/**
 * Message ids unique like WhatsApp's: one sequence for every simulated number of this process, after
 * a prefix of its own (two numbers of one account, or two processes, never hand out the same id —
 * an inbound id seen twice is a repeated delivery, and dropped).
 */
const PROCESS_ID = randomBytes(3).toString('hex').toUpperCase();
let messageSeq = 0;
export function nextSimulatedMessageId(prefix: 'SIM' | 'SIMIN'): string {
  return `${prefix}${Date.now().toString(36).toUpperCase()}${PROCESS_ID}${(++messageSeq).toString().padStart(4, '0')}`;
}

export class SimulatorDriver extends DriverEmitter implements Driver {
  readonly kind = 'simulator' as const;
  private state: WhatsappSession = { phoneNumber: null, isConnected: false, state: 'disconnected', qr: null };
  private timers = new Set<NodeJS.Timeout>();
  private readonly menus = new MenuMemory();
  readonly phoneNumber: string;
  /** Why the connection last closed by itself: 'replaced' when another connection of the number opened. */
  closeReason: 'replaced' | null = null;

  constructor(
    userId: string,
    private readonly timings: SimulatorTimings = DEFAULT_SIMULATOR_TIMINGS,
  ) {
    super();
    this.phoneNumber = simulatedNumber(userId);
  }

  status(): WhatsappSession {
    return this.state;
  }

  async connect(opts: { phoneNumber?: string } = {}): Promise<{ pairingCode?: string } | undefined> {
    if (this.state.isConnected) return undefined;
    const pairingCode = opts.phoneNumber ? pairingCodeFor(opts.phoneNumber) : undefined;
    if (this.state.state !== 'disconnected') return pairingCode ? { pairingCode } : undefined;
    this.setState(
      pairingCode
        ? { phoneNumber: null, isConnected: false, state: 'connecting', qr: null }
        : { phoneNumber: null, isConnected: false, state: 'qr', qr: `SIMULADOR@${this.phoneNumber}#${Date.now()}` },
    );
    this.closeReason = null;
    this.later(this.timings.qrMs, () => {
      simulatedWhatsapp.opened(this.phoneNumber, this);
      this.setState({ phoneNumber: null, isConnected: true, state: 'connected', qr: null });
      this.later(this.timings.detectMs, () =>
        this.setState({ phoneNumber: this.phoneNumber, isConnected: true, state: 'connected', qr: null }),
      );
    });
    return pairingCode ? { pairingCode } : undefined;
  }

  /**
   * Reconnects a number paired before (a takeover from saved credentials): no QR code, connecting
   * briefly, then connected with its number.
   */
  async resume(): Promise<void> {
    if (this.state.state !== 'disconnected') return;
    this.closeReason = null;
    this.setState({ phoneNumber: null, isConnected: false, state: 'connecting', qr: null });
    this.later(this.timings.qrMs, () => {
      simulatedWhatsapp.opened(this.phoneNumber, this);
      this.setState({ phoneNumber: this.phoneNumber, isConnected: true, state: 'connected', qr: null });
    });
  }

  async disconnect(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    simulatedWhatsapp.closed(this.phoneNumber, this);
    this.setState({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
  }

  /** Another connection of this number opened: this one drops, as WhatsApp's "replaced" (440). */
  replaced(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.closeReason = 'replaced';
    this.setState({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
  }

  /** Faults to inject; set them on a connected driver (tests and demos). */
  faults: SimulatorFaults = {};
  /** Sends per recipient, counted only while a send fault is set. */
  private readonly sendAttempts = new Map<string, number>();

  /**
   * The connection drops, as a phone losing signal: 'connecting' (sends fail as disconnected) and
   * back to connected after `forMs`. Receipts of messages already sent still arrive.
   */
  dropConnection(forMs: number): void {
    if (!this.state.isConnected) return;
    this.setState({ phoneNumber: null, isConnected: false, state: 'connecting', qr: null });
    this.later(forMs, () =>
      this.setState({ phoneNumber: this.phoneNumber, isConnected: true, state: 'connected', qr: null }),
    );
  }

  readonly choosesMessageIds = true;
  /** Every message this simulated number sent, in order (tests and demos read it). */
  readonly outbox: SimulatedOutboxEntry[] = [];
  /** Recipients shown "typing…", in order. */
  readonly typingLog: Array<{ to: string; on: boolean; at: Date }> = [];

  async typing(to: string, on: boolean): Promise<void> {
    this.typingLog.push({ to, on, at: new Date() });
    if (this.typingLog.length > OUTBOX_MAX) this.typingLog.splice(0, this.typingLog.length - OUTBOX_MAX);
  }

  /** A restriction armed by `restrictNextSend`: the WhatsApp code the next send fails with. */
  private restriction: SimulatedRestriction | null = null;

  /**
   * The next send fails as WhatsApp fails it when it restricts a number (463: a time lock, 131048:
   * spam), once; nothing goes out. The sending engine then marks the number restricted, as it would
   * on a real one (tests and demos of "Liberar número").
   */
  restrictNextSend(code: SimulatedRestriction): void {
    this.restriction = code;
  }

  async send(to: string, message: OutgoingMessage, opts: SendOptions = {}): Promise<{ providerMessageId: string }> {
    if (!this.state.isConnected) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
    if (this.restriction) {
      const code = this.restriction;
      this.restriction = null;
      throw new DriverError('permanent', RESTRICTION_TEXTS[code], undefined, Number(code));
    }
    let fault: SimulatorSendFault | null = null;
    if (this.faults.send) {
      const attempt = (this.sendAttempts.get(to) ?? 0) + 1;
      this.sendAttempts.set(to, attempt);
      fault = this.faults.send(to, attempt);
    }
    if (fault?.kind === 'fail') throw fault.error;
    const digits = phoneDigits(to);
    if (!to.endsWith('@g.us') && digits.endsWith('0')) {
      throw new DriverError('permanent', 'Número sem WhatsApp');
    }
    if (message.kind === 'interactive') this.menus.remember(digits, message.buttons);
    let recorded = message;
    let read: SimulatedOutboxEntry['read'];
    if (message.kind === 'media') {
      const { open, ...media } = message.media;
      if (open) read = await readFully(open);
      // As the personal number: only an image is fetched from a link; other links are resolved before.
      else if (!(media.url && media.kind === 'image'))
        throw new DriverError('permanent', 'Arquivo indisponível: não foi possível ler o arquivo a enviar.');
      recorded = { ...message, media };
    }
    const providerMessageId = opts.messageId ?? nextSimulatedMessageId('SIM');
    this.outbox.push({ to, message: recorded, providerMessageId, at: new Date(), ...(read ? { read } : {}) });
    if (this.outbox.length > OUTBOX_MAX) this.outbox.splice(0, this.outbox.length - OUTBOX_MAX);
    this.scheduleReceipts(providerMessageId);
    if (fault?.kind === 'lose-answer') throw fault.error;
    return { providerMessageId };
  }

  /** Sent at once, delivered and read after their delays (or the other way round, and repeated, as faults say). */
  private scheduleReceipts(providerMessageId: string): void {
    const copies = Math.max(1, this.faults.receiptCopies ?? 1);
    const steps: Array<Receipt['status']> = ['sent', 'delivered', 'read'];
    if (this.faults.reverseReceipts) steps.reverse();
    const delays = [0, this.timings.deliveredMs, this.timings.readMs];
    steps.forEach((status, i) => {
      const emit = () => {
        for (let c = 0; c < copies; c++) this.emit('receipt', { providerMessageId, status, at: new Date() });
      };
      if (delays[i] === 0) queueMicrotask(emit);
      else this.later(delays[i], emit);
    });
  }

  async checkNumbers(numbers: string[]): Promise<NumberCheck[]> {
    return numbers.map((number) => ({ number, exists: simulatedNumberExists(number) }));
  }

  async listGroups(): Promise<GroupInfo[]> {
    this.requireConnected();
    return SAMPLE_GROUPS.map((g) => ({ ...g }));
  }

  async groupParticipants(groupId: string): Promise<GroupParticipant[]> {
    this.requireConnected();
    const group = SAMPLE_GROUPS.find((g) => g.id === groupId);
    if (!group) throw new DriverError('permanent', 'Grupo não encontrado');
    const base = 5511970000000 + SAMPLE_GROUPS.indexOf(group) * 100;
    return Array.from({ length: group.membersCount }, (_, i) => {
      const phone = String(base + i + 1);
      return { id: `${phone}@s.whatsapp.net`, phone, name: `Participante ${i + 1}`, isAdmin: i === 0 };
    });
  }

  /** A message "arriving" from `from` (tests and demos). A numeric answer to a menu maps to its button. */
  injectInbound(from: string, text: string, content: SimulatedContent = {}): { providerMessageId: string } {
    const digits = phoneDigits(from);
    const providerMessageId = nextSimulatedMessageId('SIMIN');
    const plain = !Object.keys(content).length;
    this.emit('inbound', {
      from: digits,
      text,
      providerMessageId,
      timestamp: new Date(),
      ...content,
      // Only a plain text answers a numbered menu, as on a phone.
      ...(plain ? this.menus.answer(digits, text) : {}),
    });
    return { providerMessageId };
  }

  private requireConnected(): void {
    if (!this.state.isConnected) throw new DriverError('transient', 'WhatsApp desconectado');
  }

  private setState(next: WhatsappSession): void {
    this.state = next;
    this.emit('connection', next);
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }
}

/** Reads a file's stream to its end, keeping only its size and SHA-256 (a campaign's files never stay in memory). */
async function readFully(open: () => Promise<AsyncIterable<Uint8Array>>): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of await open()) {
      hash.update(chunk);
      bytes += chunk.byteLength;
    }
  } catch (err) {
    throw new DriverError('transient', `Arquivo não pôde ser lido: ${(err as Error).message}`, 30_000);
  }
  return { bytes, sha256: hash.digest('hex') };
}

function pairingCodeFor(phone: string): string {
  const h = createHash('sha256').update(phoneDigits(phone)).digest('hex').toUpperCase();
  const letters = h.replace(/[^A-Z0-9]/g, '').slice(0, 8);
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}`;
}
