import type { FastifyBaseLogger } from 'fastify';
import type { MediaKind, MessageContactCard, MessageLocation } from '../../contract/message-content';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { Config } from '../config';
import type { Db } from '../db/client';

/** A button of an interactive message (SPEC §3 Button). */
export interface MessageButton {
  id: string;
  text: string;
  type: 'url' | 'phone' | 'quick_reply';
  /** URL, phone number or keyword. */
  value: string;
}

export type OutgoingMessage =
  | { kind: 'text'; text: string }
  | { kind: 'image'; image: OutgoingImage; caption?: string }
  | { kind: 'interactive'; text: string; buttons: MessageButton[]; imageUrl?: string }
  | { kind: 'template'; name: string; language: string; components?: unknown[] }
  /** A file of any kind; `caption` goes with it where WhatsApp allows one (image, video, document). */
  | { kind: 'media'; media: OutgoingMedia; caption?: string }
  | { kind: 'location'; location: MessageLocation }
  | { kind: 'contact'; contactCard: MessageContactCard };

/**
 * A file to send. Over the bus it names one of the sending account's files (`file`, a
 * `media_uploads` id) or a public link (`url`); where the message is sent, `withAccountFile`
 * (account-file.ts) adds `open`, which reads the bytes as a stream from the media store.
 */
export interface OutgoingMedia {
  kind: MediaKind;
  mimeType: string;
  /** The name a document keeps on the phone. */
  fileName: string;
  /** A voice note (PTT): only OGG/Opus goes as one; other audio goes as an audio file. */
  voice?: boolean;
  durationSeconds?: number;
  /** The file's bytes, when known: a driver may upload once per file (Cloud API media ids). */
  size?: number;
  sha256?: string;
  file?: string;
  url?: string;
  /** Local only (never serialised): the bytes, as a fresh stream at each call. */
  open?: () => Promise<AsyncIterable<Uint8Array>>;
}

/**
 * An image to send: a link, its bytes, or one of the account's uploads by id (`media_uploads`). A
 * connection held by another process is handed the upload's id alone and reads the bytes itself
 * (uploaded-image.ts): the bus carries ids, never bytes.
 */
export interface OutgoingImage {
  url?: string;
  data?: Buffer;
  mimeType?: string;
  /** The id of one of the sending account's uploads, read where the message is sent. */
  upload?: string;
}

/**
 * Where a received file's bytes can be fetched from, as plain JSON: it is kept with the file's row
 * until the background fetch (server/media/inbound-media.ts) has stored them, in whichever process
 * runs it. Never the bytes themselves.
 * - `cloud`: the Cloud API's media id (`GET /{media-id}` gives a short-lived URL, read with the token).
 * - `baileys`: what WhatsApp Web's CDN needs (the path and the media key, base64); `mediaType` is
 *   Baileys' name for the key's purpose.
 * - `stored`: the bytes already wait in the media store under this key (the simulator's phone).
 */
export type InboundMediaSource =
  | { via: 'cloud'; mediaId: string }
  | {
      via: 'baileys';
      directPath: string;
      mediaKey: string;
      mediaType: 'image' | 'document' | 'audio' | 'video' | 'sticker';
      /** The CDN URL WhatsApp gave, used only when it is WhatsApp's own host. */
      url?: string;
    }
  | { via: 'stored'; key: string };

/** A file a contact sent: what WhatsApp says of it, and where to fetch it from. */
export interface InboundMedia {
  kind: MediaKind;
  mimeType: string;
  /** A document's name as sent; other kinds get one from their kind and type. */
  fileName?: string;
  /** As WhatsApp announces it (the stored size is what arrives). */
  size?: number;
  durationSeconds?: number;
  /** A voice note (PTT), not an audio file. */
  voice?: boolean;
  source: InboundMediaSource;
}

export interface InboundMessage {
  /** The sender as E.164 digits without '+', LID addressing already mapped back where possible. */
  from: string;
  /** What the contact wrote: the text, or a file's caption; '' when the message carries none. */
  text: string;
  /** A file: image, document, audio or voice note, video, sticker. */
  media?: InboundMedia;
  location?: MessageLocation;
  contactCard?: MessageContactCard;
  /** A reaction (`emoji` '' takes one back) to the message with this provider id. */
  reaction?: { emoji: string; providerMessageId: string };
  /** The provider id of the message this one answers (quotes). */
  replyTo?: string;
  /** A kind of message shown as "Mensagem de tipo não suportado: <this>" (poll, call, order…). */
  unsupported?: string;
  providerMessageId: string;
  timestamp: Date;
  pushName?: string;
  /** Set when the message answers a button (a Cloud API reply or a "1", "2"… to a numbered menu). */
  buttonId?: string;
  /**
   * With `buttonId`, the answer as the contact gave it, for the conversation: `text` is what the
   * chatbot acts on (a numbered-menu answer becomes its button's value), this is what was sent.
   */
  choice?: InboundChoice;
  groupId?: string;
}

/** What a button answer chose, as the contact saw and sent it. */
export interface InboundChoice {
  /** What the contact sent: '2', the option's words, or a Cloud API button's title. */
  said: string;
  /** The option's label: 'Falar com atendente'. */
  option: string;
  /** Its number on a numbered menu; absent for a real button. */
  number?: number;
}

export interface Receipt {
  providerMessageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  error?: string;
  at: Date;
}

export interface NumberCheck {
  number: string;
  exists: boolean;
}

export interface GroupInfo {
  id: string;
  name: string;
  membersCount: number;
}

export interface GroupParticipant {
  id: string;
  phone: string | null;
  name?: string;
  isAdmin: boolean;
}

export interface DriverEvents {
  inbound: (message: InboundMessage) => void;
  receipt: (receipt: Receipt) => void;
  connection: (state: WhatsappSession) => void;
}

/**
 * How a send failed, so the sending loop knows what to do: retry later (`transient`, with an
 * optional wait), give up on this recipient (`permanent`), only a template may be sent now
 * (`template_required`), or the connection's credentials are no longer valid (`auth`).
 */
export class DriverError extends Error {
  constructor(
    readonly kind: 'transient' | 'permanent' | 'template_required' | 'auth',
    message: string,
    readonly retryAfterMs?: number,
    readonly providerCode?: string | number,
  ) {
    super(message);
  }
}

export interface SendOptions {
  messageId?: string;
}

/** One connected WhatsApp account: personal number (Baileys), Cloud API or the simulator. */
export interface Driver {
  readonly kind: 'baileys' | 'cloud' | 'simulator';
  connect(opts?: { phoneNumber?: string }): Promise<{ pairingCode?: string } | undefined>;
  /** `logout` also unlinks the device / forgets the credentials; otherwise only the socket closes. */
  disconnect(opts?: { logout?: boolean }): Promise<void>;
  status(): WhatsappSession;
  /**
   * Sends to a phone number (E.164 digits) or a group id; answers the provider's message id. A
   * driver that can (Baileys, the simulator) uses `messageId` as the message's id, so the sender can
   * record it before sending and recognise a receipt that arrives after a crash.
   */
  send(to: string, message: OutgoingMessage, opts?: SendOptions): Promise<{ providerMessageId: string }>;
  /** Whether `send` honours a caller-chosen `messageId`. */
  readonly choosesMessageIds?: boolean;
  /**
   * Whether `send` takes an uploaded image by its id alone (`image.upload`, without `data`): a
   * connection held by another process, which reads the bytes from the database itself.
   */
  readonly readsUploads?: boolean;
  /**
   * Cloud API: Meta's messaging limit (unique users a business may start conversations with in a
   * moving 24 h), or null when it cannot be read (then no limit is assumed).
   */
  messagingLimit?(): Promise<number | 'unlimited' | null>;
  /** Shows "typing…" to the recipient (personal numbers); a no-op where the channel has none. */
  typing?(to: string, on: boolean): Promise<void>;
  checkNumbers(numbers: string[]): Promise<NumberCheck[]>;
  listGroups(): Promise<GroupInfo[]>;
  groupParticipants(groupId: string): Promise<GroupParticipant[]>;
  on<E extends keyof DriverEvents>(event: E, listener: DriverEvents[E]): void;
  off<E extends keyof DriverEvents>(event: E, listener: DriverEvents[E]): void;
}

/** Finds the driver that sends for an account (its default number), or null when none is connected. */
export interface DriverProvider {
  get(userId: string): Promise<Driver | null>;
  /** One of the account's numbers (`connections.id`), or null when it is not the account's or cannot send. */
  getConnection?(userId: string, connectionId: string): Promise<Driver | null>;
}

export type PersonalDriverKind = 'baileys' | 'simulator';

/** What a personal-number driver is built with. */
export interface PersonalDriverContext {
  userId: string;
  /** The number (`connections.id`): its Baileys keys, its simulated phone number. */
  connectionId: string;
  autoReconnect: boolean;
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
}

/**
 * The events the connection manager passes on, with the account and the number (`connectionId`)
 * they belong to. A subscriber may answer a promise; its failure is logged and never reaches the driver.
 */
export interface WhatsappEvents {
  inbound(event: {
    userId: string;
    connectionId: string;
    message: InboundMessage;
    driver: Driver;
  }): void | Promise<void>;
  /**
   * An account's receipts in arrival order, in batches of at most 500, one batch at a time per
   * account: the next batch waits for every subscriber to finish this one.
   */
  receipts(event: { userId: string; connectionId: string; receipts: Receipt[] }): void | Promise<void>;
  /**
   * `requested` is set when this server asked for the disconnection (the account's own disconnect,
   * or the server shutting down): a 'disconnected' without it is a connection lost.
   */
  connection(event: {
    userId: string;
    connectionId: string;
    state: WhatsappSession;
    requested?: 'disconnect' | 'shutdown';
  }): void | Promise<void>;
}

export type WhatsappSubscriber = Partial<WhatsappEvents>;
