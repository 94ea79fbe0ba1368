import { sql } from 'drizzle-orm';
import type { ConversationMessage } from '../../contract/conversations';
import { contentPreview, messageContentMsg } from '../../contract/message-content';
import { contactLimitFor } from '../../contract/plans';
import { ONLINE_WINDOW_MS } from '../../contract/presence';
import { lockAccount } from '../db/account-lock';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { normalizePhone } from '../lib/phone';
import type { InboundChoice, InboundMessage, Receipt } from '../whatsapp/driver';
import { RECEIPT_APPLY_ORDER, RECEIPT_FROM } from '../whatsapp/receipt-order';
import type { InboundFiles } from './inbound-media';

export type OutboundSource = 'bot' | 'manual';
export type OutboundStatus = 'queued' | 'sent' | 'failed';

/**
 * The conversation (this number and contact) as the pipeline found it before this message; the
 * opt-out is the contact's, on every number.
 */
export interface ConversationState {
  contactId: string | null;
  name: string | null;
  optedOut: boolean;
  /** The last inbound message on this number before this one, or null for the first ever. */
  previousInboundAt: Date | null;
  takenOverUntil: Date | null;
  outOfHoursDay: string | null;
  /**
   * The queue the conversation is in, or the one it joins with this message (its number's oldest
   * queue); `joined` when this message puts it there (a new conversation, offered to its people).
   */
  queue: ConversationQueue | null;
}

export interface ConversationQueue {
  id: string;
  hours: { start: string; end: string; days: string[] } | null;
  outOfHoursMessage: string;
  assignment: 'manual' | 'round_robin';
  joined: boolean;
}

const preview = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/** The buttons an outbound message carried, as stored with it (contract/conversations.ts). */
export type StoredButtons = NonNullable<ConversationMessage['buttons']>;

/** An answer to buttons in one line: '2 — Falar com atendente', or what was sent. */
export function choiceLine(said: string, choice: InboundChoice | undefined): string {
  return choice?.number ? `${choice.number} — ${choice.option}` : said;
}

/**
 * Finds the account's contact for a number, creating it when the number writes for the first time
 * (name from the WhatsApp profile when given) while the plan's contact limit allows.
 */
export async function ensureContact(
  db: Db,
  userId: string,
  phoneDigits: string,
  pushName: string | undefined,
): Promise<{ id: string; name: string; optedOut: boolean } | null> {
  const e164 = normalizePhone(`+${phoneDigits}`);
  if (!e164) return null;
  const found = rowsOf<{ id: string; name: string; opted_out: boolean }>(
    await db.execute(sql`select id, name, opted_out from contacts where ${accountSql(userId)} and phone = ${e164}`),
  )[0];
  if (found) return { id: found.id, name: found.name, optedOut: found.opted_out };
  // Without a profile name the contact has none: screens show its number, {{nome}} its fallback.
  const name = cleanName(pushName);
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const account = rowsOf<{ plan_type: string }>(
      await t.execute(sql`select plan_type from users where id = ${userId}`),
    )[0];
    if (!account) return null;
    const limit = contactLimitFor(account.plan_type);
    // Counted and inserted under the account's contacts lock, as creates and imports are: twenty new
    // numbers writing at once to an account one short of its limit make one contact, not twenty.
    if (limit !== null) await lockAccount(t, userId, 'contacts');
    // Counted only up to the limit: counting every contact of a large account (100,000 of them)
    // took the one thread for about 15 ms at each number's first message.
    const fits =
      limit === null
        ? sql`true`
        : sql`(select count(*) from (select 1 from contacts where ${accountSql(userId)} limit ${limit}) t) < ${limit}`;
    const rows = rowsOf<{ id: string; name: string; opted_out: boolean }>(
      await t.execute(sql`
        insert into contacts (user_id, name, phone, tags)
        select ${userId}, ${name}, ${e164}, '{}'
        where ${fits}
        on conflict (user_id, phone) do update set phone = excluded.phone
        returning id, name, opted_out`),
    );
    // At the limit, a number added meanwhile by someone else is still the contact.
    const row =
      rows[0] ??
      rowsOf<{ id: string; name: string; opted_out: boolean }>(
        await t.execute(sql`select id, name, opted_out from contacts where ${accountSql(userId)} and phone = ${e164}`),
      )[0];
    return row ? { id: row.id, name: row.name, optedOut: row.opted_out } : null;
  });
}

function cleanName(value: string | undefined): string {
  // Profile names are free text: keep printable characters only, at most 120 of them.
  return (value ?? '')
    .replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, '')
    .trim()
    .slice(0, 120);
}

/**
 * Receives a person's inbound message for the reply pipeline in one round trip: records it once by
 * provider id (a repeated delivery answers null and changes nothing) and answers the conversation
 * as it was before this message together with the account's contact for the number. A number that
 * writes for the first time becomes a contact (see ensureContact) in a second statement, once.
 * The message joins its conversation afterwards (storeInbound), off the reply's path; so the last
 * inbound message on this number before this one (a new conversation gets the welcome) is also
 * swapped in the contact's `chatbot_turns` row as the message is recorded: of two messages recorded
 * at once, even by two processes, one sees the other (the row's lock orders them).
 */
export async function receiveInbound(
  db: Db,
  userId: string,
  channel: 'baileys' | 'cloud' | 'simulator',
  message: {
    from: string;
    text: string;
    buttonId?: string;
    providerMessageId: string;
    timestamp: Date;
    pushName?: string;
  },
  connectionId: string,
): Promise<ConversationState | null> {
  const e164 = normalizePhone(`+${message.from}`);
  const at = message.timestamp.toISOString();
  const row = rowsOf<{
    fresh: boolean;
    contact_id: string | null;
    contact_name: string | null;
    opted_out: boolean | null;
    last_inbound_at: Date | string | null;
    taken_over_until: Date | string | null;
    out_of_hours_day: string | null;
    queue_id: string | null;
    queue_hours: ConversationQueue['hours'];
    queue_message: string | null;
    queue_assignment: ConversationQueue['assignment'] | null;
    queue_joined: boolean | null;
  }>(
    await db.execute(sql`
      with fresh as (
        insert into whatsapp_inbound_messages (user_id, connection_id, channel, from_phone, text, button_id, provider_message_id, received_at)
        values (${userId}, ${connectionId}::uuid, ${channel}, ${message.from}, ${message.text}, ${message.buttonId ?? null},
                ${message.providerMessageId}, ${at})
        on conflict do nothing
        returning id
      ), seen as (
        insert into chatbot_turns (user_id, contact, last_inbound_at, inbound_by_number)
        select ${userId}, ${message.from}, ${at}::timestamptz, jsonb_build_object(${connectionId}::text, ${at}::timestamptz)
        where exists (select 1 from fresh)
        on conflict (user_id, contact) do update set
          previous_inbound_at = chatbot_turns.last_inbound_at,
          last_inbound_at = greatest(chatbot_turns.last_inbound_at, excluded.last_inbound_at),
          previous_on_number = (chatbot_turns.inbound_by_number ->> ${connectionId}::text)::timestamptz,
          inbound_by_number = chatbot_turns.inbound_by_number || jsonb_build_object(${connectionId}::text,
            greatest((chatbot_turns.inbound_by_number ->> ${connectionId}::text)::timestamptz, excluded.last_inbound_at))
        returning previous_on_number
      ), contact as (
        select id, name, opted_out from contacts where ${accountSql(userId)} and phone = ${e164}
      ), before as (
        select last_inbound_at, taken_over_until, out_of_hours_day, queue_id from conversations
        where ${accountSql(userId)} and phone = ${message.from} and connection_id = ${connectionId}
      ), queue as (
        -- The conversation's queue, or the one a new conversation joins (as storeInbound places it).
        select q.id, q.hours, q.out_of_hours_message, q.assignment, (select queue_id from before) is null as joined
        from queues q
        where ${accountSql(userId, 'q.user_id')}
          and (q.id = (select queue_id from before)
               or ((select queue_id from before) is null and ${connectionId}::uuid = any(q.connection_ids)))
        order by q.created_at, q.id limit 1
      )
      select exists (select 1 from fresh) as fresh,
             (select id from contact) as contact_id, (select name from contact) as contact_name,
             (select opted_out from contact) as opted_out,
             greatest((select last_inbound_at from before), (select previous_on_number from seen)) as last_inbound_at,
             (select taken_over_until from before) as taken_over_until,
             (select out_of_hours_day from before) as out_of_hours_day,
             (select id from queue) as queue_id, (select hours from queue) as queue_hours,
             (select out_of_hours_message from queue) as queue_message,
             (select assignment from queue) as queue_assignment, (select joined from queue) as queue_joined`),
  )[0];
  if (!row?.fresh) return null;
  const contact = row.contact_id
    ? { id: row.contact_id, name: row.contact_name ?? '', optedOut: !!row.opted_out }
    : e164
      ? await ensureContact(db, userId, message.from, message.pushName)
      : null;
  const date = (v: Date | string | null | undefined) => (v ? new Date(v) : null);
  return {
    contactId: contact?.id ?? null,
    name: contact?.name ?? null,
    optedOut: contact?.optedOut ?? false,
    previousInboundAt: date(row.last_inbound_at),
    takenOverUntil: date(row.taken_over_until),
    outOfHoursDay: row.out_of_hours_day ?? null,
    queue: row.queue_id
      ? {
          id: row.queue_id,
          hours: row.queue_hours ?? null,
          outOfHoursMessage: row.queue_message ?? '',
          assignment: row.queue_assignment ?? 'manual',
          joined: !!row.queue_joined,
        }
      : null,
  };
}

/**
 * Stores a received message in its conversation (created on the first one) with the 'inbound'
 * event, in one statement. It runs after the pipeline's steps, so both carry the message's own
 * time to sort before the replies; the next message of the contact waits for it (one queue per
 * contact), so it always sees the conversation moved on.
 */
export async function storeInbound(
  db: Db,
  userId: string,
  message: InboundMessage,
  conversation: ConversationState,
  receivedAt: Date,
  connectionId: string,
  files?: InboundFiles,
): Promise<void> {
  const at = message.timestamp.toISOString();
  // An answer to buttons keeps what the contact sent ('2'), with the option it chose; `text` is
  // what the chatbot acted on (the button's value).
  const { choice } = message;
  const said =
    message.unsupported && !message.text
      ? messageContentMsg.unsupported(message.unsupported)
      : choice?.said || message.text;
  const chosen = choice
    ? JSON.stringify({ option: choice.option, ...(choice.number ? { number: choice.number } : {}) })
    : null;
  const json = (value: unknown) => (value ? JSON.stringify(value) : null);
  const line = preview(
    choice
      ? choiceLine(said, choice)
      : contentPreview({
          text: message.text,
          media: message.media,
          location: message.location,
          contactCard: message.contactCard,
          reaction: message.reaction,
          unsupported: message.unsupported,
        }),
  );
  const write = (t: Db, mediaId: string | null) =>
    t.execute(sql`
    with stored as (
      insert into conversation_messages (user_id, phone, connection_id, direction, source, text, choice, status, provider_message_id, created_at,
                                         media_id, location, contact_card, reaction, reply_to, unsupported)
      values (${userId}, ${message.from}, ${connectionId}, 'in', 'contact', ${said}, ${chosen}::jsonb, 'received', ${message.providerMessageId}, ${at},
              ${mediaId}::uuid, ${json(message.location)}::jsonb, ${json(message.contactCard)}::jsonb, ${json(message.reaction)}::jsonb,
              ${message.replyTo ?? null}, ${message.unsupported ?? null})
    ), event as (
      insert into bot_events (user_id, contact_phone, kind, created_at)
      values (${userId}, ${message.from}, 'inbound', ${receivedAt.toISOString()})
    )
    insert into conversations (user_id, phone, contact_id, name, last_message_at, last_message_text, last_direction, last_inbound_at, unread, inbound_count, connection_id, queue_id)
    values (${userId}, ${message.from}, ${conversation.contactId}, ${conversation.name}, ${at}, ${line}, 'in', ${at}, 1, 1, ${connectionId}::uuid,
            -- A new conversation goes to its number's queue (the oldest, when several name the number).
            (select q.id from queues q where ${accountSql(userId, 'q.user_id')} and ${connectionId}::uuid = any(q.connection_ids)
             order by q.created_at, q.id limit 1))
    on conflict (user_id, phone, connection_id) do update set
      queue_id = coalesce(conversations.queue_id, excluded.queue_id),
      contact_id = coalesce(excluded.contact_id, conversations.contact_id),
      name = coalesce(excluded.name, conversations.name),
      last_message_at = greatest(conversations.last_message_at, excluded.last_message_at),
      last_message_text = case when excluded.last_message_at >= conversations.last_message_at
                               then excluded.last_message_text else conversations.last_message_text end,
      last_direction = case when excluded.last_message_at >= conversations.last_message_at
                            then 'in' else conversations.last_direction end,
      last_inbound_at = greatest(conversations.last_inbound_at, excluded.last_inbound_at),
      unread = conversations.unread + 1,
      inbound_count = conversations.inbound_count + 1,
      -- The contact wrote again: a resolved conversation is open once more (its assignee kept).
      status = case when conversations.status = 'resolved' then 'open' else conversations.status end`);
  const { media } = message;
  if (!media || !files) {
    await write(db, null);
    return;
  }
  // The file's row, its message and the job that fetches it: all three, or none.
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await write(t, await files.record(t, userId, connectionId, media, message.timestamp));
  });
}

/**
 * Stores a message the bot or a person sent (or tried to), makes it the conversation's last and,
 * for the bot, records its event — one statement: a burst of replies costs the embedded database
 * one commit each instead of three.
 */
export async function recordOutboundMessage(
  db: Db,
  userId: string,
  input: {
    phone: string;
    /** The number it went out through: the conversation it belongs to. */
    connectionId: string;
    source: OutboundSource;
    text: string;
    imageUrl?: string | null;
    /** A file it carried (media_uploads.id). */
    mediaId?: string | null;
    /** The conversation list's line when the text alone does not say what went ('📎 catalogo.pdf'). */
    preview?: string;
    /** A location or a contact card it carried (a bot rule's). */
    location?: { latitude: number; longitude: number; name?: string; address?: string } | null;
    contactCard?: { name: string; phone: string | null } | null;
    /** The buttons sent with the text (a bot rule's). */
    buttons?: StoredButtons | null;
    status: OutboundStatus;
    providerMessageId?: string | null;
    failureReason?: string | null;
    /** Who wrote a person's answer (a login of the account); the conversation becomes theirs when nobody has it. */
    authorId?: string | null;
  },
  event?: { kind: string; detail?: string },
): Promise<string> {
  const eventCte = event
    ? sql`, event as (
        insert into bot_events (user_id, contact_phone, kind, detail)
        values (${userId}, ${input.phone}, ${event.kind}, ${event.detail?.slice(0, 200) ?? null}))`
    : sql``;
  const inserted = rowsOf<{ id: string }>(
    await db.execute(sql`
      with stored as (
        insert into conversation_messages (user_id, phone, connection_id, direction, source, text, image_url, media_id, location, contact_card, buttons, status, failure_reason, provider_message_id, author_id)
        values (${userId}, ${input.phone}, ${input.connectionId}, 'out', ${input.source}, ${input.text}, ${input.imageUrl ?? null}, ${input.mediaId ?? null}::uuid,
                ${input.location ? JSON.stringify(input.location) : null}::jsonb, ${input.contactCard ? JSON.stringify(input.contactCard) : null}::jsonb,
                ${input.buttons?.options.length ? JSON.stringify(input.buttons) : null}::jsonb, ${input.status},
                ${input.failureReason ?? null}, ${input.providerMessageId ?? null}, ${input.authorId ?? null}::uuid)
        returning id
      ), conversation as (
        insert into conversations (user_id, phone, connection_id, last_message_at, last_message_text, last_direction, assignee_id)
        values (${userId}, ${input.phone}, ${input.connectionId}, now(), ${preview(input.preview ?? input.text)}, 'out', ${input.authorId ?? null}::uuid)
        on conflict (user_id, phone, connection_id) do update set
          last_message_at = now(), last_message_text = excluded.last_message_text, last_direction = 'out',
          assignee_id = coalesce(conversations.assignee_id, excluded.assignee_id)
      )${eventCte}
      select id from stored`),
  );
  return inserted[0]?.id ?? '';
}

/** Silences the bot in a conversation (number and contact) until `until` (a person answers), or hands it back (null). */
export async function setTakenOver(
  db: Db,
  userId: string,
  phone: string,
  connectionId: string,
  until: Date | null,
): Promise<void> {
  await db.execute(sql`
    insert into conversations (user_id, phone, connection_id, taken_over_until, last_message_at)
    values (${userId}, ${phone}, ${connectionId}, ${until?.toISOString() ?? null}, now())
    on conflict (user_id, phone, connection_id) do update set taken_over_until = excluded.taken_over_until`);
}

export async function markOutOfHoursSent(
  db: Db,
  userId: string,
  phone: string,
  connectionId: string,
  day: string,
): Promise<void> {
  // An upsert: on a first message ever, the conversation is only created after the steps.
  await db.execute(sql`
    insert into conversations (user_id, phone, connection_id, out_of_hours_day, last_message_at)
    values (${userId}, ${phone}, ${connectionId}, ${day}, now())
    on conflict (user_id, phone, connection_id) do update set out_of_hours_day = excluded.out_of_hours_day`);
}

/** The last messages of a conversation, oldest first, for the AI's context (an answer to buttons as the option chosen). */
export async function recentMessages(
  db: Db,
  userId: string,
  phone: string,
  connectionId: string,
  limit: number,
): Promise<Array<{ direction: 'in' | 'out'; text: string }>> {
  const rows = rowsOf<{ direction: 'in' | 'out'; text: string }>(
    await db.execute(sql`
      select direction, coalesce(choice->>'option', text) as text from conversation_messages
      where ${accountSql(userId)} and phone = ${phone} and connection_id = ${connectionId} and source <> 'note'
      order by created_at desc limit ${limit}`),
  );
  return rows.reverse();
}

/**
 * Moves bot and people's messages forward on receipts (never back, see receipt-order.ts), one
 * statement per status, in the order that gives the same end state as any arrival order.
 */
export async function recordConversationReceipts(db: Db, userId: string, receipts: Receipt[]): Promise<void> {
  for (const status of RECEIPT_APPLY_ORDER) {
    const group = receipts.filter((r) => r.status === status);
    if (!group.length) continue;
    const from = sql.join(
      RECEIPT_FROM[status].map((s) => sql`${s}`),
      sql`, `,
    );
    const ids = group.map((r) => r.providerMessageId);
    const errors = group.map((r) => r.error ?? null);
    await db.execute(sql`
      update conversation_messages m set status = ${status},
        failure_reason = ${status === 'failed' ? sql`coalesce(v.error, 'Falha na entrega.')` : sql`null`}
      from unnest(${sql.param(ids)}::text[], ${sql.param(errors)}::text[]) as v(id, error)
      where m.provider_message_id = v.id and ${accountSql(userId, 'm.user_id')} and m.direction = 'out'
        and m.status in (${from})`);
  }
}

/**
 * Puts a conversation in a queue (the chatbot's handoff naming one); its place in another queue is
 * replaced. The conversation row exists already (the handoff took it over).
 */
export async function moveToQueue(
  db: Db,
  userId: string,
  phone: string,
  connectionId: string,
  queueId: string,
): Promise<ConversationQueue | null> {
  const row = rowsOf<{
    id: string;
    hours: ConversationQueue['hours'];
    out_of_hours_message: string;
    assignment: ConversationQueue['assignment'];
  }>(
    await db.execute(sql`
      with q as (
        select id, hours, out_of_hours_message, assignment from queues
        where ${accountSql(userId)} and id = ${queueId}::uuid
      ), moved as (
        update conversations set queue_id = (select id from q)
        where ${accountSql(userId)} and phone = ${phone} and connection_id = ${connectionId}::uuid
          and exists (select 1 from q)
      )
      select id, hours, out_of_hours_message, assignment from q`),
  )[0];
  return row
    ? {
        id: row.id,
        hours: row.hours ?? null,
        outOfHoursMessage: row.out_of_hours_message,
        assignment: row.assignment,
        // Offered by the handoff itself, not again once the message is stored.
        joined: false,
      }
    : null;
}

/**
 * Round robin: gives a conversation nobody has to the queue's next person in turn among its active
 * members signed in (seen within the online window), after the one given the last. The queue's row
 * is locked for the turn, so two conversations offered at once, even on two processes, go to two
 * people. Answers who got it, or null (nobody online, or someone had it already).
 */
export async function offerToQueue(
  db: Db,
  userId: string,
  phone: string,
  connectionId: string,
  queueId: string,
  now: Date,
): Promise<string | null> {
  const since = new Date(now.getTime() - ONLINE_WINDOW_MS).toISOString();
  const row = rowsOf<{ assignee_id: string | null }>(
    await db.execute(sql`
      with q as (
        select id, member_ids, last_assignee_id from queues
        where ${accountSql(userId)} and id = ${queueId}::uuid and assignment = 'round_robin'
        for update
      ), members as (
        select m.id, m.ord from q, unnest(q.member_ids) with ordinality as m(id, ord)
      ), candidates as (
        select m.id, m.ord from members m join users u on u.id = m.id
        where (u.id = ${userId} or u.account_id = ${userId}) and u.is_active and u.last_seen_at >= ${since}::timestamptz
      ), pick as (
        select id from candidates
        order by ord <= coalesce((select m.ord from members m, q where m.id = q.last_assignee_id), 0), ord
        limit 1
      ), assigned as (
        update conversations set assignee_id = (select id from pick)
        where ${accountSql(userId)} and phone = ${phone} and connection_id = ${connectionId}::uuid
          and assignee_id is null and exists (select 1 from pick)
        returning assignee_id
      ), turned as (
        update queues set last_assignee_id = (select assignee_id from assigned)
        where id = (select id from q) and exists (select 1 from assigned)
      )
      select (select assignee_id from assigned) as assignee_id`),
  )[0];
  return row?.assignee_id ?? null;
}
