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
  image?: { caption?: string };
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
        const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
        const text = m.text?.body ?? reply?.title ?? m.button?.text ?? m.image?.caption ?? '';
        const buttonId = reply?.id ?? m.button?.payload;
        // A button pressed: its title is both what the contact sent and the option chosen.
        const title = reply?.title ?? m.button?.text;
        push({
          key: `msg:${m.id}`,
          inbound: {
            from: m.from.replace(/\D/g, ''),
            text,
            providerMessageId: m.id,
            timestamp: at(m.timestamp),
            ...(names.get(m.from) ? { pushName: names.get(m.from) } : {}),
            ...(buttonId ? { buttonId } : {}),
            ...(buttonId && title ? { choice: { said: title, option: title } } : {}),
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
