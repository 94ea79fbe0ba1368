import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { BotButton, BotEventKind } from '../../contract/bot';
import { contentPreview, type MediaKind, type MessageLocation } from '../../contract/message-content';
import { uploadIdOf } from '../../contract/uploads';
import type { Db } from '../db/client';
import { isDatabaseUnavailable } from '../db/errors';
import { whatsappInboundMessages } from '../db/schema';
import { Foreground } from '../lib/foreground';
import { KeyedQueue } from '../lib/keyed-queue';
import { Semaphore } from '../lib/semaphore';
import { readyAccountFile } from '../media/account-files';
import { type FileOpener, withAccountFile } from '../whatsapp/account-file';
import type { Driver, InboundMessage, MessageButton, OutgoingMessage, WhatsappSubscriber } from '../whatsapp/driver';
import { sendsNumberedMenu } from '../whatsapp/numbered-menu';
import type { AiResponder } from './ai';
import { type BotSetup, BotSetupCache } from './bot-setup';
import {
  type ConversationState,
  type OutboundSource,
  receiveInbound,
  recordConversationReceipts,
  recordOutboundMessage,
  type StoredButtons,
  storeInbound,
} from './conversations';
import type { InboundFiles } from './inbound-media';
import { optOutStep } from './opt-out';
import { offerInTurn, queueOutOfHoursStep, REPLY_STEPS } from './steps';
import { ContactTurns, type TurnTimings } from './turns';

export interface ChatbotDeps {
  db: Db;
  log: FastifyBaseLogger;
  /** Tells the contacts module that an account's contacts changed (its cached figures and index). */
  contactsChanged: (userId: string) => void;
  ai: AiResponder;
  /** The clock; tests move it. */
  now?: () => Date;
  /** Work that goes first (webhooks being answered); the chatbot's statements wait for it. */
  foreground?: Foreground;
  /**
   * Whether the bot answers on a number (its on/off per number); by default it does. Opt-out is
   * honoured on every number whatever this says.
   */
  botEnabledOn?: (userId: string, connectionId: string) => Promise<boolean>;
  /** Contacts worked on at once (waits on the network do not count); default 4. */
  concurrency?: number;
  /**
   * Several processes share the database (PostgreSQL): a contact's messages also take a turn
   * across processes (turns.ts), so each is answered once and in order whichever process its
   * webhook reached. Off by default: one process orders them in memory.
   */
  crossProcess?: boolean | { timings?: Partial<TurnTimings> };
  /** Received files: recorded with their message, fetched in the background (inbound-media.ts). */
  files?: InboundFiles;
  /** The account's files, read where a rule's file is sent (a connection of this process). */
  openFile?: FileOpener;
}

/**
 * What the bot sends: text, optionally with an image (the text is its caption) and buttons; or one
 * of the account's files (`mediaUrl`, `upload:<id>`), a location or a contact card, with the text
 * as the file's caption where WhatsApp allows one, else as a message right after.
 */
export interface ReplyContent {
  text: string;
  imageUrl?: string;
  buttons?: BotButton[];
  mediaUrl?: string;
  location?: MessageLocation | null;
  contactCard?: { name: string; phone: string } | null;
}

/** One message of a reply and what its conversation row keeps. */
interface ReplyPart {
  message: OutgoingMessage;
  stored: {
    text: string;
    imageUrl: string | null;
    mediaId?: string | null;
    preview?: string;
    location?: MessageLocation | null;
    contactCard?: { name: string; phone: string } | null;
    buttons: StoredButtons | null;
  };
}

/** Kinds whose message carries a caption on WhatsApp; audio and stickers have none. */
const CAPTIONED: ReadonlySet<MediaKind> = new Set(['image', 'video', 'document']);

/**
 * The messages a reply is sent as. Text, image and buttons: one, as always. A file: the file with
 * the text as caption (document, video), or the file then the text (audio); a file the account no
 * longer has leaves the text alone. A location or a contact card, then the text if there is one.
 */
async function replyParts(db: Db, userId: string, driver: Driver, content: ReplyContent): Promise<ReplyPart[]> {
  const text = content.text;
  const textPart = (): ReplyPart => ({
    message: { kind: 'text', text },
    stored: { text, imageUrl: null, buttons: null },
  });
  const after = (first: ReplyPart): ReplyPart[] => (text.trim() ? [first, textPart()] : [first]);
  if (content.location) {
    const location = content.location;
    return after({
      message: { kind: 'location', location },
      stored: { text: '', imageUrl: null, location, preview: contentPreview({ location }), buttons: null },
    });
  }
  if (content.contactCard) {
    const contactCard = content.contactCard;
    return after({
      message: { kind: 'contact', contactCard },
      stored: { text: '', imageUrl: null, contactCard, preview: contentPreview({ contactCard }), buttons: null },
    });
  }
  if (content.mediaUrl) {
    const id = uploadIdOf(content.mediaUrl, { uuidOnly: true });
    const file = id ? await readyAccountFile(db, userId, id) : null;
    if (!id || !file) return text.trim() ? [textPart()] : [];
    const kind = file.kind;
    // Only OGG/Opus plays as a voice note on a phone; other audio goes as an audio file.
    const voice = kind === 'audio' && file.voice && file.mimeType === 'audio/ogg';
    const captioned = CAPTIONED.has(kind);
    const caption = captioned ? text : '';
    const filePart: ReplyPart = {
      message: {
        kind: 'media',
        media: {
          kind,
          mimeType: file.mimeType,
          fileName: file.fileName,
          file: id,
          ...(voice ? { voice: true } : {}),
          ...(file.durationSeconds ? { durationSeconds: file.durationSeconds } : {}),
        },
        ...(caption ? { caption } : {}),
      },
      stored: {
        text: caption,
        imageUrl: null,
        mediaId: id,
        preview: contentPreview({
          text: caption,
          media: { kind, fileName: file.fileName, voice, durationSeconds: file.durationSeconds ?? undefined },
        }),
        buttons: null,
      },
    };
    return captioned ? [filePart] : after(filePart);
  }
  return [
    {
      message: toOutgoing(content),
      stored: {
        text,
        imageUrl: content.imageUrl || null,
        buttons: storedButtons(driver.kind, content.buttons),
      },
    },
  ];
}

export interface InboundContext {
  db: Db;
  log: FastifyBaseLogger;
  ai: AiResponder;
  contactsChanged: (userId: string) => void;
  userId: string;
  /** The number the message arrived on: the conversation's, and the one replies go out through. */
  connectionId: string;
  message: InboundMessage;
  driver: Driver;
  setup: BotSetup;
  conversation: ConversationState;
  now: Date;
  /** Sends through the connection the message came from, stores it, records the event; false when the send failed. */
  reply(content: ReplyContent, kind: BotEventKind, detail?: string, source?: OutboundSource): Promise<boolean>;
  event(kind: BotEventKind, detail?: string): Promise<void>;
  /** Waits on something outside (the AI) without holding one of the pipeline's slots. */
  outside<T>(wait: () => Promise<T>): Promise<T>;
}

/** One step of the reply pipeline: 'stop' when it has dealt with the message. */
export type InboundStep = (ctx: InboundContext) => Promise<'continue' | 'stop'>;

/** Every inbound message passes these, in order (DESIGN §3, chatbot): opt-out always first. */
const STEPS: InboundStep[] = [optOutStep, ...REPLY_STEPS];
/** A number with the bot off honours opt-outs and its queue's hours; a person answers the rest. */
const BOT_OFF_STEPS: InboundStep[] = [optOutStep, queueOutOfHoursStep];

/** Records an inbound message once (by provider id); answers false for a repeated delivery. */
export async function recordInbound(
  db: Db,
  userId: string,
  channel: Driver['kind'],
  message: InboundMessage,
  connectionId: string | null = null,
): Promise<boolean> {
  const inserted = await db
    .insert(whatsappInboundMessages)
    .values({
      userId,
      connectionId,
      channel,
      fromPhone: message.from,
      text: message.text,
      buttonId: message.buttonId ?? null,
      providerMessageId: message.providerMessageId,
      receivedAt: message.timestamp,
    })
    .onConflictDoNothing()
    .returning({ id: whatsappInboundMessages.id });
  return inserted.length > 0;
}

/**
 * Button ids carry their action, so a press is understood whatever the rules are by then: a quick
 * reply's keyword, a link or a phone number (Cloud API reply buttons allow 256 characters).
 */
export function toMessageButtons(buttons: BotButton[]): MessageButton[] {
  return buttons.map((b) => ({
    id:
      b.type === 'quick_reply' ? `kw:${b.value}`.slice(0, 256) : b.type === 'url' ? `url:${b.value}` : `tel:${b.value}`,
    text: b.text,
    type: b.type,
    value: b.value,
  }));
}

export function toOutgoing(content: ReplyContent): OutgoingMessage {
  if (content.buttons?.length)
    return {
      kind: 'interactive',
      text: content.text,
      buttons: toMessageButtons(content.buttons),
      imageUrl: content.imageUrl || undefined,
    };
  if (content.imageUrl) return { kind: 'image', image: { url: content.imageUrl }, caption: content.text };
  return { kind: 'text', text: content.text };
}

/** The buttons a reply carries, as the conversation keeps them: in order, and how the contact got them. */
export function storedButtons(kind: Driver['kind'], buttons: readonly BotButton[] | undefined): StoredButtons | null {
  if (!buttons?.length) return null;
  return {
    numbered: sendsNumberedMenu(kind, buttons),
    options: buttons.map((b) => ({ text: b.text, type: b.type, value: b.value })),
  };
}

export async function recordBotEvent(
  db: Db,
  userId: string,
  phone: string,
  kind: BotEventKind,
  detail?: string,
  at?: Date,
): Promise<void> {
  await db.execute(sql`
    insert into bot_events (user_id, contact_phone, kind, detail, created_at)
    values (${userId}, ${phone}, ${kind}, ${detail?.slice(0, 200) ?? null}, ${at ? at.toISOString() : sql`now()`})`);
}

/** How long an inbound message waits for the database to come back, try after try (about 5 minutes). */
const STORE_RETRY_MS = [500, 1000, 2000, 5000, 15_000, 30_000, 60_000, 60_000, 60_000, 60_000];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The database with `execute` taking its turn after pending I/O (and webhooks under way). */
function yieldingExecute(db: Db, foreground: Foreground): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'execute') {
        return (query: Parameters<Db['execute']>[0]) => foreground.background(() => target.execute(query));
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * The chatbot's subscription to the WhatsApp layer. Each inbound message, from any driver, is
 * recorded once (a repeated webhook is dropped), stored in its conversation, then passes the steps
 * in order until one deals with it. Messages of one contact are handled one after another in the
 * order they arrived (with `crossProcess`, also when they reached different processes: turns.ts);
 * different contacts in parallel; the caller (the webhook) never waits.
 */
export function chatbotSubscriber(
  deps: ChatbotDeps,
): WhatsappSubscriber & { idle(): Promise<void>; configChanged(userId: string): void } {
  // Each statement of the pipeline first lets waiting I/O run (a webhook to answer): statements
  // chained in promise callbacks would otherwise hold the thread for a whole burst of replies.
  const db = yieldingExecute(deps.db, deps.foreground ?? new Foreground());
  const setups = new BotSetupCache(deps.db);
  const queue = new KeyedQueue();
  const turns = deps.crossProcess
    ? new ContactTurns(db, deps.log, deps.crossProcess === true ? {} : deps.crossProcess.timings)
    : null;
  // Tickets are taken one after another per contact, so this process's follow its arrival order.
  const tickets = new KeyedQueue();
  // A few contacts at a time: on one thread (and the embedded database's one connection) a burst
  // of 200 contacts' statements would otherwise queue ahead of every webhook's answer to Meta.
  const slots = new Semaphore(deps.concurrency ?? 4);
  const clock = deps.now ?? (() => new Date());

  /**
   * A personal number's message exists nowhere else (unlike a webhook, which Meta delivers again):
   * while the database is out of reach it waits, the contact's later messages behind it, and is
   * stored when the database is back. The semaphore's slot is free while it waits.
   */
  function untilStored<T>(write: () => Promise<T>): Promise<T> {
    return whileUnavailable(write, (ms) => slots.outside(() => sleep(ms)));
  }

  /** The same wait for a statement made outside the semaphore (the contact's turn). */
  async function whileUnavailable<T>(write: () => Promise<T>, pause = sleep): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || attempt >= STORE_RETRY_MS.length) throw err;
        deps.log.warn({ err }, 'database unavailable: an inbound message waits to be stored');
        await pause(STORE_RETRY_MS[attempt]);
      }
    }
  }

  async function handle(userId: string, connectionId: string, message: InboundMessage, driver: Driver): Promise<void> {
    const receivedAt = new Date();
    // The bot answers people, not groups: a group message is only recorded.
    if (message.groupId) {
      await recordInbound(db, userId, driver.kind, message, connectionId);
      return;
    }
    const conversation = await untilStored(() => receiveInbound(db, userId, driver.kind, message, connectionId));
    if (!conversation) return; // delivered before
    const setup = await setups.get(userId);
    const ctx: InboundContext = {
      db,
      log: deps.log,
      ai: deps.ai,
      contactsChanged: deps.contactsChanged,
      userId,
      connectionId,
      message,
      driver,
      setup,
      conversation,
      now: clock(),
      event: (kind, detail) => recordBotEvent(db, userId, message.from, kind, detail),
      outside: (wait) => slots.outside(wait),
      reply: async (content, kind, detail, source = 'bot') => {
        const base = { phone: message.from, connectionId, source };
        const parts = await replyParts(db, userId, driver, content);
        // The reply's event goes with its first message; a text sent right after a file goes alone.
        for (const [i, part] of parts.entries()) {
          const stored = { ...base, ...part.stored };
          try {
            const outgoing = driver.readsUploads
              ? part.message
              : await withAccountFile(part.message, userId, deps.openFile);
            const sent = await slots.outside(() => driver.send(message.from, outgoing));
            await recordOutboundMessage(
              db,
              userId,
              { ...stored, status: 'sent', providerMessageId: sent.providerMessageId },
              i === 0 ? { kind, detail } : undefined,
            );
          } catch (err) {
            deps.log.warn({ err, kind }, 'the chatbot could not send a reply');
            const failureReason = err instanceof Error ? err.message.slice(0, 200) : 'Falha no envio.';
            await recordOutboundMessage(
              db,
              userId,
              { ...stored, status: 'failed', failureReason },
              { kind: 'reply_failed', detail: kind },
            );
            return false;
          }
        }
        return true;
      },
    };
    // A number with the bot off only honours opt-outs; a person answers the rest.
    const answering = deps.botEnabledOn ? await deps.botEnabledOn(userId, connectionId) : true;
    try {
      // A reaction is recorded and answered by nobody: no welcome, no out-of-hours notice.
      for (const step of message.reaction ? [] : answering ? STEPS : BOT_OFF_STEPS) {
        if ((await step(ctx)) === 'stop') return;
      }
    } finally {
      // Off the reply's path, stamped with the arrival so it sorts before what the steps recorded.
      await storeInbound(db, userId, message, conversation, receivedAt, connectionId, deps.files);
      // A conversation new to its number's queue is offered to the queue's people (round robin).
      if (conversation.queue?.joined) await offerInTurn(ctx, conversation.queue);
    }
  }

  return {
    inbound: ({ userId, connectionId, message, driver }) => {
      const key = `${userId}:${message.groupId ?? message.from}`;
      // The place in the contact's line across processes is taken on arrival (a group's message is
      // only recorded: it needs none); the turn is awaited when this process gets to the message.
      const ticket =
        turns && !message.groupId
          ? tickets.run(key, () => whileUnavailable(() => turns.take(userId, message.from)))
          : null;
      ticket?.catch(() => undefined); // awaited below, maybe after it failed
      void queue
        .run(key, async () => {
          // Whatever I/O is waiting (another webhook to answer) goes first.
          await new Promise((resolve) => setImmediate(resolve));
          if (!turns || !ticket) return slots.run(() => handle(userId, connectionId, message, driver));
          const taken = await ticket;
          // Waited for outside the semaphore: a contact in line holds up no other contact.
          const turn = await whileUnavailable(() => turns.wait(taken));
          try {
            return await slots.run(() => handle(userId, connectionId, message, driver));
          } finally {
            await turn.release();
          }
        })
        .catch((err) => deps.log.error({ err }, 'an inbound message could not be handled'));
    },
    receipts: async ({ userId, receipts }) => {
      await recordConversationReceipts(deps.db, userId, receipts);
    },
    idle: () => queue.idle(),
    configChanged: (userId) => setups.invalidate(userId),
  };
}
