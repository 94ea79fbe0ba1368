import { sql } from 'drizzle-orm';
import { type Conversation, type ConversationMessage, conversationsMsg } from '../../../contract/conversations';
import { recordOutboundMessage, setTakenOver } from '../../chatbot/conversations';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { personalText } from '../../sending/content';
import { DriverError } from '../../whatsapp/driver';

interface ConversationRow {
  phone: string;
  contact_id: string | null;
  name: string | null;
  contact_name: string | null;
  last_message_at: Date | string;
  last_message_text: string;
  last_direction: 'in' | 'out';
  unread: number;
  taken_over_until: Date | string | null;
  connection_id?: string | null;
  number_label?: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

function toConversation(r: ConversationRow, now = new Date()): Conversation {
  const until = r.taken_over_until ? new Date(r.taken_over_until) : null;
  return {
    phone: r.phone,
    contactId: r.contact_id,
    name: r.contact_name ?? r.name,
    lastMessageAt: iso(r.last_message_at),
    lastMessageText: r.last_message_text,
    lastDirection: r.last_direction,
    unread: r.unread,
    takenOverUntil: until && until > now ? until.toISOString() : null,
    connectionId: r.connection_id ?? null,
    numberLabel: r.number_label ?? null,
  };
}

const SELECT = sql`
  select v.phone, coalesce(v.contact_id, c.id) as contact_id, v.name, c.name as contact_name, v.last_message_at,
         v.last_message_text, v.last_direction, v.unread, v.taken_over_until, v.connection_id, n.label as number_label
  from conversations v
  left join contacts c on c.user_id = v.user_id and c.phone = '+' || v.phone
  left join connections n on n.id = v.connection_id and n.user_id = v.user_id`;

/** The account's conversations, most recent activity first; `search` on the name or the number. */
export async function listConversations(
  db: Db,
  userId: string,
  q: { search?: string; limit: number; connectionId?: string },
): Promise<Conversation[]> {
  const term = q.search?.trim();
  const onNumber = q.connectionId ? sql`and v.connection_id = ${q.connectionId}` : sql``;
  const digits = term?.replace(/\D/g, '') ?? '';
  const filter = term
    ? sql`and (coalesce(c.name, v.name, '') ilike ${`%${term.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}${
        digits.length >= 3 ? sql` or v.phone like ${`%${digits}%`}` : sql``
      })`
    : sql``;
  const rows = rowsOf<ConversationRow>(
    await db.execute(
      sql`${SELECT} where v.user_id = ${userId} ${filter} ${onNumber} order by v.last_message_at desc limit ${q.limit}`,
    ),
  );
  const now = new Date();
  return rows.map((r) => toConversation(r, now));
}

async function findConversation(db: Db, userId: string, phone: string): Promise<Conversation> {
  const row = rowsOf<ConversationRow>(
    await db.execute(sql`${SELECT} where v.user_id = ${userId} and v.phone = ${phone}`),
  )[0];
  if (row) return toConversation(row);
  // A contact who never wrote has an empty conversation (reachable from the contacts page).
  const contact = rowsOf<{ id: string; name: string; created_at: Date | string }>(
    await db.execute(
      sql`select id, name, created_at from contacts where user_id = ${userId} and phone = ${`+${phone}`}`,
    ),
  )[0];
  if (!contact) throw new AppError('NOT_FOUND', conversationsMsg.notFound);
  return {
    phone,
    contactId: contact.id,
    name: contact.name,
    lastMessageAt: iso(contact.created_at),
    lastMessageText: '',
    lastDirection: 'out',
    unread: 0,
    takenOverUntil: null,
  };
}

/**
 * One conversation and a page of its messages, oldest first: what the contact wrote, the bot's and
 * people's answers, and the campaigns it was sent (from their recipient rows, text as it went out).
 * Opening it marks it read.
 */
export async function getConversation(
  db: Db,
  userId: string,
  phone: string,
  q: { before?: string; limit: number },
): Promise<{ conversation: Conversation; messages: ConversationMessage[] }> {
  const conversation = await findConversation(db, userId, phone);
  const before = q.before ? sql`and m.created_at < ${q.before}::timestamptz` : sql``;
  const beforeCampaign = q.before ? sql`and r.sent_at < ${q.before}::timestamptz` : sql``;
  const own = rowsOf<{
    id: string;
    direction: 'in' | 'out';
    source: 'contact' | 'bot' | 'manual';
    text: string;
    image_url: string | null;
    status: ConversationMessage['status'];
    failure_reason: string | null;
    created_at: Date | string;
    buttons: ConversationMessage['buttons'] | null;
    choice: ConversationMessage['choice'] | null;
  }>(
    await db.execute(sql`
      select m.id, m.direction, m.source, m.text, m.image_url, m.status, m.failure_reason, m.created_at,
             m.buttons, m.choice
      from conversation_messages m
      where m.user_id = ${userId} and m.phone = ${phone} ${before}
      order by m.created_at desc limit ${q.limit}`),
  );
  // Each campaign's row for this number through the (campaign, recipient) key: cheap whatever the campaign sizes.
  const sent = rowsOf<{
    id: string;
    message: string;
    image_url: string | null;
    name: string;
    email: string | null;
    status: string;
    error: string | null;
    sent_at: Date | string;
  }>(
    await db.execute(sql`
      select r.id, c.message, c.image_url, r.name, r.email, r.status, r.error, r.sent_at
      from campaigns c
      join campaign_recipients r on r.campaign_id = c.id and r.recipient = ${phone}
      where c.user_id = ${userId} and r.kind = 'contact' and r.sent_at is not null ${beforeCampaign}
      order by r.sent_at desc limit ${q.limit}`),
  );
  const messages: ConversationMessage[] = [
    ...own.map((m) => ({
      id: m.id,
      direction: m.direction,
      source: m.source,
      text: m.text,
      imageUrl: m.image_url,
      status: m.status,
      failureReason: m.failure_reason,
      createdAt: iso(m.created_at),
      // What the contact saw (the buttons of a bot reply) and answered (the option of a button answer).
      ...(m.buttons?.options?.length ? { buttons: m.buttons } : {}),
      ...(m.choice?.option ? { choice: m.choice } : {}),
    })),
    ...sent.map(
      (r): ConversationMessage => ({
        id: r.id,
        direction: 'out',
        source: 'campaign',
        text: personalText(r.message, { recipient: phone, kind: 'contact', name: r.name, email: r.email }),
        imageUrl: r.image_url && /^https?:\/\//.test(r.image_url) ? r.image_url : null,
        status: (['sent', 'delivered', 'read', 'failed'].includes(r.status)
          ? r.status
          : 'sent') as ConversationMessage['status'],
        failureReason: r.status === 'failed' ? r.error : null,
        createdAt: iso(r.sent_at),
      }),
    ),
  ]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, q.limit)
    .reverse();
  if (conversation.unread > 0) {
    await db.execute(sql`update conversations set unread = 0 where user_id = ${userId} and phone = ${phone}`);
    conversation.unread = 0;
  }
  return { conversation, messages };
}

async function handoffMinutes(db: Db, userId: string): Promise<number> {
  const row = rowsOf<{ handoff_minutes: number }>(
    await db.execute(sql`select handoff_minutes from bot_configs where user_id = ${userId}`),
  )[0];
  return row?.handoff_minutes ?? 120;
}

/**
 * A person answers from 'Conversas': the message goes out through the account's WhatsApp, is
 * stored, and the conversation is taken over (the bot is silent with this contact for the
 * configured time).
 */
export async function sendManualMessage(
  deps: Pick<AppDeps, 'db' | 'drivers'>,
  userId: string,
  phone: string,
  text: string,
): Promise<Conversation> {
  const { db } = deps;
  await findConversation(db, userId, phone);
  const optedOut = rowsOf<{ opted_out: boolean }>(
    await db.execute(sql`select opted_out from contacts where user_id = ${userId} and phone = ${`+${phone}`}`),
  )[0]?.opted_out;
  if (optedOut) throw new AppError('CONFLICT', conversationsMsg.optedOut);
  // Through the number the contact last wrote to, while it can send; else the account's default.
  const [{ number } = { number: null }] = rowsOf<{ number: string | null }>(
    await db.execute(
      sql`select connection_id as number from conversations where user_id = ${userId} and phone = ${phone}`,
    ),
  );
  const driver = (number && (await deps.drivers.getConnection?.(userId, number))) || (await deps.drivers.get(userId));
  if (driver?.status().state !== 'connected') throw new AppError('CONFLICT', conversationsMsg.notConnected);
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await driver.send(phone, { kind: 'text', text }));
  } catch (err) {
    const reason = err instanceof DriverError ? err.message : conversationsMsg.sendError;
    await recordOutboundMessage(db, userId, {
      phone,
      source: 'manual',
      text,
      status: 'failed',
      failureReason: reason.slice(0, 200),
    });
    throw new AppError(
      'CONFLICT',
      err instanceof DriverError && err.kind === 'template_required' ? reason : conversationsMsg.sendError,
    );
  }
  await recordOutboundMessage(db, userId, { phone, source: 'manual', text, status: 'sent', providerMessageId });
  await setTakenOver(db, userId, phone, new Date(Date.now() + (await handoffMinutes(db, userId)) * 60_000));
  return findConversation(db, userId, phone);
}

/** Takes a conversation over without answering, or hands it back to the bot. */
export async function setConversationOwner(
  db: Db,
  userId: string,
  phone: string,
  person: boolean,
): Promise<Conversation> {
  await findConversation(db, userId, phone);
  await setTakenOver(
    db,
    userId,
    phone,
    person ? new Date(Date.now() + (await handoffMinutes(db, userId)) * 60_000) : null,
  );
  return findConversation(db, userId, phone);
}
