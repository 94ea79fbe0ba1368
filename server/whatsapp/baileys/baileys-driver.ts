import type { AnyMessageContent, ConnectionState, WAMessage, WAMessageUpdate } from '@whiskeysockets/baileys';
import { mediaMsg } from '../../../contract/media';
import { formatPhone, phoneDigits } from '../../../contract/phone';
import type { WhatsappSession } from '../../../contract/whatsapp';
import type { FetchedImage } from '../../lib/outbound-fetch';
import type { PersonalDriverContext } from '../driver';
import {
  type Driver,
  DriverError,
  type GroupInfo,
  type GroupParticipant,
  type NumberCheck,
  type OutgoingMessage,
  type Receipt,
  type SendOptions,
} from '../driver';
import { DriverEmitter } from '../driver-emitter';
import { MenuMemory, renderNumberedMenu } from '../numbered-menu';
import type { DatabaseAuthState } from './auth-state';
import type { BaileysSocketLike, MakeSocket } from './baileys-socket';
import { type InboundContent, inboundContent } from './inbound-content';
import { outgoingContent } from './outgoing-content';

export type { BaileysSocketLike, MakeSocket } from './baileys-socket';

/** Baileys' close codes (DisconnectReason) this driver acts on. */
const LOGGED_OUT = 401;
const CONNECTION_REPLACED = 440;
const RESTART_REQUIRED = 515;
const TIMED_OUT = 408;

const MAX_BACKOFF_MS = 60_000;

export interface BaileysDriverOptions {
  userId: string;
  autoReconnect: boolean;
  auth: () => Promise<DatabaseAuthState>;
  makeSocket: MakeSocket;
  log: PersonalDriverContext['log'];
  /** First reconnect delay; doubles up to a minute (tests shorten it). */
  backoffMs?: number;
  pairingTimeoutMs?: number;
  /** Downloads a linked image under the outbound-fetch rules; Baileys is never handed a URL to fetch itself. */
  fetchImage: (url: string) => Promise<FetchedImage>;
}

const JID_SUFFIX = '@s.whatsapp.net';
const userOf = (jid: string | null | undefined) => (jid ? jid.split('@')[0].split(':')[0] : '');
const isLid = (jid: string | null | undefined) => Boolean(jid?.endsWith('@lid'));
const isPn = (jid: string | null | undefined) => Boolean(jid?.endsWith(JID_SUFFIX));
const isPlainText = (c: InboundContent) => !c.media && !c.location && !c.contactCard && !c.reaction && !c.unsupported;

/** Message status codes of WhatsApp Web (proto.WebMessageInfo.Status). */
const STATUS_TO_RECEIPT: Record<number, Receipt['status'] | undefined> = {
  0: 'failed',
  2: 'sent',
  3: 'delivered',
  4: 'read',
  5: 'read',
};

/**
 * The personal number through WhatsApp Web (Baileys): QR or pairing code, auth state in the database,
 * reconnect with backoff on transient closes, logged-out clears the state, LID-aware inbound, and
 * buttons sent as a numbered text menu.
 */
export class BaileysDriver extends DriverEmitter implements Driver {
  readonly kind = 'baileys' as const;
  private state: WhatsappSession = { phoneNumber: null, isConnected: false, state: 'disconnected', qr: null };
  private sock: BaileysSocketLike | null = null;
  private auth: DatabaseAuthState | null = null;
  private stopping = false;
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pairing: { phone: string; resolve: (code: string) => void; reject: (e: Error) => void } | null = null;
  private readonly menus = new MenuMemory();

  constructor(private readonly opts: BaileysDriverOptions) {
    super();
  }

  status(): WhatsappSession {
    return this.state;
  }

  async connect(opts: { phoneNumber?: string } = {}): Promise<{ pairingCode?: string } | undefined> {
    if (this.state.isConnected) return undefined;
    this.stopping = false;
    if (!this.sock) await this.start();
    if (!opts.phoneNumber) return undefined;
    if (this.auth?.state.creds.registered) return undefined;
    const phone = phoneDigits(opts.phoneNumber);
    const code = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new DriverError('transient', 'pairing code timed out')),
        this.opts.pairingTimeoutMs ?? 20_000,
      );
      this.pairing = {
        phone,
        resolve: (c) => {
          clearTimeout(timer);
          resolve(c);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      // Already showing a QR: the socket is ready for a pairing code now.
      if (this.state.state === 'qr') void this.requestPairing();
    });
    const clean = code.replace(/[^A-Z0-9]/gi, '').toUpperCase();
    return { pairingCode: clean.length === 8 ? `${clean.slice(0, 4)}-${clean.slice(4)}` : code };
  }

  async disconnect(opts: { logout?: boolean } = {}): Promise<void> {
    this.stopping = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const sock = this.sock;
    this.sock = null;
    if (sock) {
      if (opts.logout) await sock.logout().catch(() => undefined);
      await Promise.resolve(sock.end(undefined)).catch(() => undefined);
    }
    if (opts.logout) await this.auth?.clear();
    this.setState({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
  }

  private async start(): Promise<void> {
    this.auth ??= await this.opts.auth();
    const sock = this.opts.makeSocket(this.auth.state);
    this.sock = sock;
    this.setState({ phoneNumber: null, isConnected: false, state: 'connecting', qr: null });
    sock.ev.on('creds.update', (update) => {
      if (sock !== this.sock) return;
      void this.auth?.saveCreds().catch((err) => this.opts.log.error({ err }, 'could not save WhatsApp credentials'));
      // The number may appear only after the connection opened.
      if (update.me?.id && this.state.isConnected && !this.state.phoneNumber) this.onOpen();
    });
    sock.ev.on('connection.update', (update) => {
      if (sock === this.sock) this.onConnectionUpdate(update);
    });
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      if (sock !== this.sock || type !== 'notify') return;
      for (const m of messages) void this.onMessage(sock, m);
    });
    sock.ev.on('messages.update', (updates) => {
      if (sock === this.sock) this.onMessageUpdates(updates);
    });
  }

  private onConnectionUpdate(update: Partial<ConnectionState>): void {
    if (update.qr) {
      this.setState({ phoneNumber: null, isConnected: false, state: 'qr', qr: this.pairing ? null : update.qr });
      if (this.pairing) void this.requestPairing();
    }
    if (update.connection === 'open') {
      this.attempts = 0;
      this.onOpen();
    }
    if (update.connection === 'close') this.onClose(update.lastDisconnect?.error);
  }

  private onOpen(): void {
    const me = this.sock?.user?.id ?? this.auth?.state.creds.me?.id;
    const digits = isLid(me) ? '' : userOf(me);
    this.setState({
      phoneNumber: digits ? formatPhone(digits) : null,
      isConnected: true,
      state: 'connected',
      qr: null,
    });
  }

  private async requestPairing(): Promise<void> {
    const pairing = this.pairing;
    if (!pairing || !this.sock) return;
    this.pairing = null;
    try {
      pairing.resolve(await this.sock.requestPairingCode(pairing.phone));
    } catch (err) {
      pairing.reject(new DriverError('transient', (err as Error).message));
    }
  }

  private onClose(error: unknown): void {
    const sock = this.sock;
    this.sock = null;
    if (this.stopping) return;
    const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
    const registered = Boolean(this.auth?.state.creds.registered);
    void Promise.resolve(sock?.end(undefined)).catch(() => undefined);

    if (code === LOGGED_OUT) {
      // Unlinked from the phone: forget the state, back to Offline (a new QR next time).
      this.opts.log.info({ userId: this.opts.userId }, 'WhatsApp logged out');
      void this.auth?.clear();
      this.auth = null;
      this.setState({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
      return;
    }
    if (code === RESTART_REQUIRED) {
      // Normal right after pairing: WhatsApp asks for a fresh socket with the new credentials.
      void this.start();
      return;
    }
    if (!registered && (code === TIMED_OUT || code === undefined)) {
      // The QR codes expired without a scan: not an outage, just back to Offline.
      this.setState({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
      return;
    }
    if (code === CONNECTION_REPLACED || !this.opts.autoReconnect) {
      this.setState({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
      return;
    }
    const base = this.opts.backoffMs ?? 1_000;
    const delay = Math.min(MAX_BACKOFF_MS, base * 2 ** this.attempts) * (0.8 + Math.random() * 0.4);
    this.attempts++;
    this.opts.log.warn({ userId: this.opts.userId, code, delay }, 'WhatsApp connection closed; reconnecting');
    this.setState({ phoneNumber: null, isConnected: false, state: 'connecting', qr: null });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopping) void this.start().catch((err) => this.opts.log.error({ err }, 'WhatsApp reconnect failed'));
    }, delay);
    this.reconnectTimer.unref?.();
  }

  /** The phone number behind a jid: LID addressing is mapped back through the alt jid or Baileys' LID store. */
  private async phoneOf(sock: BaileysSocketLike, jid: string | null | undefined, alt?: string | null): Promise<string> {
    if (!isLid(jid)) return userOf(jid);
    // No mapping known: keep the LID's number rather than lose the message.
    return (await this.mappedPhone(sock, jid as string, alt)) ?? userOf(jid);
  }

  private async mappedPhone(sock: BaileysSocketLike, lid: string, alt?: string | null): Promise<string | null> {
    if (isPn(alt)) return userOf(alt);
    try {
      const pn = await sock.signalRepository.lidMapping.getPNForLID(lid);
      return pn ? userOf(pn) : null;
    } catch {
      return null;
    }
  }

  private async onMessage(sock: BaileysSocketLike, m: WAMessage): Promise<void> {
    const key = m.key as WAMessage['key'] & { remoteJidAlt?: string; participantAlt?: string };
    if (!key?.id || key.fromMe || !key.remoteJid || key.remoteJid === 'status@broadcast') return;
    const content = inboundContent(m.message);
    // Signalling (key distribution, revokes, settings) and empty messages are no conversation.
    if (!content) return;
    const isGroup = key.remoteJid.endsWith('@g.us');
    const from = isGroup
      ? await this.phoneOf(sock, key.participant, key.participantAlt)
      : await this.phoneOf(sock, key.remoteJid, key.remoteJidAlt);
    if (!from) return;
    const ts = Number(m.messageTimestamp ?? 0);
    this.emit('inbound', {
      from,
      ...content,
      providerMessageId: key.id,
      timestamp: ts ? new Date(ts * 1000) : new Date(),
      ...(m.pushName ? { pushName: m.pushName } : {}),
      // A numbered-menu answer: the button's value and id, and what the contact sent.
      // Only a text can answer one: a file's caption or a location is not a choice.
      ...(isGroup ? { groupId: key.remoteJid } : isPlainText(content) ? this.menus.answer(from, content.text) : {}),
    });
  }

  private onMessageUpdates(updates: WAMessageUpdate[]): void {
    for (const { key, update } of updates) {
      if (!key?.id || !key.fromMe || typeof update?.status !== 'number') continue;
      const status = STATUS_TO_RECEIPT[update.status];
      if (status) this.emit('receipt', { providerMessageId: key.id, status, at: new Date() });
    }
  }

  private requireSocket(): BaileysSocketLike {
    if (!this.sock || !this.state.isConnected) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
    return this.sock;
  }

  readonly choosesMessageIds = true;

  private async linkedImage(url: string): Promise<Buffer> {
    try {
      return (await this.opts.fetchImage(url)).data;
    } catch {
      throw new DriverError('permanent', mediaMsg.imageUnavailable);
    }
  }

  async typing(to: string, on: boolean): Promise<void> {
    const sock = this.requireSocket();
    const jid = to.includes('@') ? to : `${phoneDigits(to)}${JID_SUFFIX}`;
    await sock.sendPresenceUpdate?.(on ? 'composing' : 'paused', jid);
  }

  async send(to: string, message: OutgoingMessage, opts: SendOptions = {}): Promise<{ providerMessageId: string }> {
    const sock = this.requireSocket();
    const jid = to.includes('@') ? to : `${phoneDigits(to)}${JID_SUFFIX}`;
    let content: AnyMessageContent;
    switch (message.kind) {
      case 'text':
        // No link preview: Baileys would fetch any link in the text from this server.
        content = { text: message.text, linkPreview: null };
        break;
      case 'image':
        if (message.image.data) content = { image: message.image.data, caption: message.caption };
        else if (message.image.url)
          content = { image: await this.linkedImage(message.image.url), caption: message.caption };
        else throw new DriverError('permanent', 'Imagem vazia');
        break;
      case 'interactive': {
        const menu = renderNumberedMenu(message.text, message.buttons);
        this.menus.remember(userOf(jid), message.buttons);
        content = message.imageUrl
          ? { image: await this.linkedImage(message.imageUrl), caption: menu }
          : { text: menu, linkPreview: null };
        break;
      }
      case 'template':
        throw new DriverError('permanent', 'Modelos de mensagem só existem na API oficial.');
      case 'media':
      case 'location':
      case 'contact':
        content = await outgoingContent(message, (url) => this.linkedImage(url));
        break;
    }
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, content, opts.messageId ? { messageId: opts.messageId } : undefined);
    } catch (err) {
      // 463: WhatsApp's "reach-out time-lock" on messages to people who never wrote to this number.
      const code = (err as { output?: { statusCode?: number }; data?: unknown }).output?.statusCode;
      if (code === 463 || /\b463\b/.test(String((err as Error).message))) {
        throw new DriverError('transient', (err as Error).message, 60 * 60_000, 463);
      }
      throw new DriverError('transient', (err as Error).message, 30_000);
    }
    const id = sent?.key?.id;
    if (!id) throw new DriverError('transient', 'WhatsApp não devolveu o id da mensagem');
    return { providerMessageId: id };
  }

  async checkNumbers(numbers: string[]): Promise<NumberCheck[]> {
    const sock = this.requireSocket();
    const digits = numbers.map(phoneDigits);
    const results = (await sock.onWhatsApp(...digits.filter(Boolean))) ?? [];
    const found = new Set(results.filter((r) => r.exists).map((r) => userOf(r.jid)));
    return numbers.map((number, i) => ({ number, exists: found.has(digits[i]) }));
  }

  async listGroups(): Promise<GroupInfo[]> {
    const sock = this.requireSocket();
    const groups = await sock.groupFetchAllParticipating();
    return Object.values(groups).map((g) => ({
      id: g.id,
      name: g.subject,
      membersCount: g.size ?? g.participants?.length ?? 0,
    }));
  }

  async groupParticipants(groupId: string): Promise<GroupParticipant[]> {
    const sock = this.requireSocket();
    const meta = await sock.groupMetadata(groupId);
    return Promise.all(
      meta.participants.map(async (p) => {
        const known = isPn(p.phoneNumber) ? userOf(p.phoneNumber) : isPn(p.id) ? userOf(p.id) : null;
        const phone = known ?? (isLid(p.id) ? await this.mappedPhone(sock, p.id) : null);
        return {
          id: p.id,
          phone,
          ...(p.name || p.notify ? { name: p.name ?? p.notify } : {}),
          isAdmin: Boolean(p.admin),
        };
      }),
    );
  }

  private setState(next: WhatsappSession): void {
    this.state = next;
    this.emit('connection', next);
  }
}
