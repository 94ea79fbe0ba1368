import { createHmac, timingSafeEqual } from 'node:crypto';
import type { InboundMessage, Receipt } from '../driver';

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. */
export function verifySignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function signBody(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** A file as the webhook announces it; the bytes are fetched later by id (media-download.ts). */
interface WebhookMediaObject {
  id?: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  /** Audio: a voice note recorded in WhatsApp. */
  voice?: boolean;
  /** Sticker. */
  animated?: boolean;
}

/**
 * One inbound message as Meta's public webhook reference shapes it. Every field is checked at run
 * time: the payload is JSON from outside, and its signature proves only who sent it.
 */
interface WebhookMessage {
  from: string;
  id: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  interactive?: {
    type?: string;
    button_reply?: { id: string; title: string };
    list_reply?: { id: string; title: string };
  };
  button?: { payload?: string; text?: string };
  image?: WebhookMediaObject;
  document?: WebhookMediaObject;
  audio?: WebhookMediaObject;
  video?: WebhookMediaObject;
  sticker?: WebhookMediaObject;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string; url?: string };
  contacts?: Array<{ name?: { formatted_name?: string }; phones?: Array<{ phone?: string; wa_id?: string }> }>;
  reaction?: { message_id?: string; emoji?: string };
  /** Set on a reply: the message quoted. */
  context?: { id?: string; from?: string };
}

interface WebhookStatus {
  id: string;
  status: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: Array<{ code?: number; title?: string; message?: string }>;
}

export interface WebhookPayload {
  object?: string;
  entry?: Array<{
    id?: string;
    changes?: Array<{
      field?: string;
      value?: {
        metadata?: { phone_number_id?: string; display_phone_number?: string };
        contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>;
        messages?: WebhookMessage[];
        statuses?: WebhookStatus[];
      };
    }>;
  }>;
}

export type WebhookEvent = { key: string; inbound: InboundMessage } | { key: string; receipt: Receipt };

const at = (ts?: string) => (ts && /^\d+$/.test(ts) ? new Date(Number(ts) * 1000) : new Date());

/**
 * Meta's own ids are well under 100 characters (`wamid.` and base64); a phone number, under 20. A
 * longer one is no delivery of Meta's: it is skipped, so a sender cannot grow the memory of recent
 * event keys with its size.
 */
export const WEBHOOK_ID_MAX = 256;
const FROM_MAX = 32;
/**
 * Meta sends a few entries per delivery (up to a few hundred in a burst of statuses); an account
 * signs with its own app secret, so this bounds what one delivery can ask of the server.
 */
export const WEBHOOK_EVENTS_MAX = 1000;

export class TooManyWebhookEvents extends Error {}

const validId = (id: unknown, max = WEBHOOK_ID_MAX): id is string =>
  typeof id === 'string' && id.length > 0 && id.length <= max;

/** Bounds of what a received message keeps of Meta's strings (WhatsApp's own limits, or near them). */
export const CAPTION_MAX = 4096;
export const FILE_NAME_MAX = 255;
export const MIME_TYPE_MAX = 100;
export const PLACE_TEXT_MAX = 500;
const CONTACT_NAME_MAX = 500;
const EMOJI_MAX = 32;
const PHONE_MAX = 32;
const UNSUPPORTED_TYPE_MAX = 40;

/** A string field cut to `max` characters; undefined when it is no string. */
const bounded = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined);

/** 'audio/ogg; codecs=opus' → 'audio/ogg'; anything that is no plain type/subtype is only bytes. */
function mimeTypeOf(v: unknown): string {
  const type = typeof v === 'string' && v.length <= MIME_TYPE_MAX ? v.split(';')[0].trim().toLowerCase() : '';
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : 'application/octet-stream';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

type MessageContent = Pick<
  InboundMessage,
  'text' | 'media' | 'location' | 'contactCard' | 'reaction' | 'unsupported' | 'buttonId' | 'choice'
>;

/**
 * What one message carries, by its type. A type this server does not know, or a known one without
 * what it needs (a file without its id), becomes `unsupported`, so that no message arrives empty.
 * No I/O: a file is only announced here, with the id its bytes are fetched by later.
 */
function messageContent(m: WebhookMessage): MessageContent {
  // Older deliveries (and some tests) leave out `type` on text and button answers.
  const type =
    typeof m.type === 'string'
      ? m.type
      : m.text
        ? 'text'
        : m.interactive
          ? 'interactive'
          : m.button
            ? 'button'
            : 'unknown';
  const unsupported = (): MessageContent => ({
    text: '',
    unsupported: /^[a-z0-9_]+$/.test(type) && type.length <= UNSUPPORTED_TYPE_MAX ? type : 'unknown',
  });
  switch (type) {
    case 'text':
      return typeof m.text?.body === 'string' ? { text: m.text.body } : unsupported();
    case 'interactive':
    case 'button': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      const said = [reply?.title, m.button?.text].find((v) => typeof v === 'string');
      const buttonId = [reply?.id, m.button?.payload].find((v) => typeof v === 'string');
      if (said === undefined && buttonId === undefined) return unsupported();
      // A button pressed: its title is both what the contact sent and the option chosen.
      return {
        text: said ?? '',
        ...(buttonId ? { buttonId } : {}),
        ...(buttonId && said ? { choice: { said, option: said } } : {}),
      };
    }
    case 'image':
    case 'document':
    case 'audio':
    case 'video':
    case 'sticker': {
      const file = m[type];
      if (!isObject(file) || !validId(file.id)) return unsupported();
      const fileName = type === 'document' ? bounded(file.filename, FILE_NAME_MAX) : undefined;
      const caption = type === 'audio' || type === 'sticker' ? undefined : bounded(file.caption, CAPTION_MAX);
      return {
        text: caption ?? '',
        media: {
          kind: type,
          mimeType: mimeTypeOf(file.mime_type),
          ...(fileName ? { fileName } : {}),
          ...(type === 'audio' ? { voice: file.voice === true } : {}),
          source: { via: 'cloud', mediaId: file.id },
        },
      };
    }
    case 'location': {
      const l = m.location;
      if (!isObject(l)) return unsupported();
      const { latitude, longitude } = l;
      if (typeof latitude !== 'number' || typeof longitude !== 'number') return unsupported();
      if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return unsupported(); // also NaN
      const name = bounded(l.name, PLACE_TEXT_MAX);
      const address = bounded(l.address, PLACE_TEXT_MAX);
      return {
        text: '',
        location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
      };
    }
    case 'contacts': {
      // Several cards in one message are rare; the first stands for the message.
      const card = Array.isArray(m.contacts) ? m.contacts[0] : undefined;
      if (!isObject(card)) return unsupported();
      const name = isObject(card.name) ? bounded(card.name.formatted_name, CONTACT_NAME_MAX) : undefined;
      const phones = Array.isArray(card.phones) ? card.phones.filter(isObject) : [];
      // wa_id is the number as WhatsApp knows it; `phone` is as the sender's address book wrote it.
      const waId = phones
        .map((p) => p.wa_id)
        .find((id): id is string => typeof id === 'string' && /^\d{1,32}$/.test(id));
      const written = phones.map((p) => p.phone).find((n): n is string => typeof n === 'string' && /\d/.test(n));
      const digits =
        typeof written === 'string'
          ? written
              .slice(0, PHONE_MAX * 2)
              .replace(/\D/g, '')
              .slice(0, PHONE_MAX)
          : '';
      return { text: '', contactCard: { name: name ?? '', phone: waId ?? (digits || null) } };
    }
    case 'reaction': {
      const r = m.reaction;
      if (!isObject(r) || !validId(r.message_id)) return unsupported();
      // Meta leaves the emoji out (or empty) when the contact takes the reaction back.
      return { text: '', reaction: { emoji: bounded(r.emoji, EMOJI_MAX) ?? '', providerMessageId: r.message_id } };
    }
    default:
      return unsupported();
  }
}

/**
 * The messages and statuses of a webhook delivery for one phone number, each with an idempotency
 * key; throws TooManyWebhookEvents past WEBHOOK_EVENTS_MAX (before any further work).
 */
export function webhookEvents(payload: WebhookPayload, phoneNumberId: string): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  const push = (event: WebhookEvent) => {
    if (events.length >= WEBHOOK_EVENTS_MAX) throw new TooManyWebhookEvents();
    events.push(event);
  };
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const value = change.value;
      if (change.field !== 'messages' || !value) continue;
      if (value.metadata?.phone_number_id && value.metadata.phone_number_id !== phoneNumberId) continue;
      const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
      for (const m of value.messages ?? []) {
        if (!validId(m?.id) || !validId(m.from, FROM_MAX)) continue;
        const replyTo = isObject(m.context) && validId(m.context.id) ? m.context.id : undefined;
        push({
          key: `msg:${m.id}`,
          inbound: {
            from: m.from.replace(/\D/g, ''),
            ...messageContent(m),
            providerMessageId: m.id,
            timestamp: at(m.timestamp),
            ...(names.get(m.from) ? { pushName: names.get(m.from) } : {}),
            ...(replyTo ? { replyTo } : {}),
          },
        });
      }
      for (const s of value.statuses ?? []) {
        if (!validId(s?.id) || !['sent', 'delivered', 'read', 'failed'].includes(s.status)) continue;
        const error = s.errors?.[0];
        push({
          key: `status:${s.id}:${s.status}`,
          receipt: {
            providerMessageId: s.id,
            status: s.status as Receipt['status'],
            at: at(s.timestamp),
            ...(error ? { error: `${error.code ?? ''} ${error.title ?? error.message ?? ''}`.trim() } : {}),
          },
        });
      }
    }
  }
  return events;
}
