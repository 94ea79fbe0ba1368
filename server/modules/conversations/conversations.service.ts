import { type SQL, sql } from 'drizzle-orm';
import {
  CONVERSATION_STATUS_LABELS,
  type Conversation,
  type ConversationMessage,
  type ConversationStatus,
  conversationsMsg,
} from '../../../contract/conversations';
import { notificationLinks, notificationMsg } from '../../../contract/notifications';
import { formatPhone } from '../../../contract/phone';
import { uploadIdOf, uploadUrl } from '../../../contract/uploads';
import { recordOutboundMessage, setTakenOver } from '../../chatbot/conversations';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { AccountContext } from '../../plugins/account-context';
import { type ErrorLog, notify } from '../../records/notify';
import { personalText } from '../../sending/content';
import { withAccountFile } from '../../whatsapp/account-file';
import { DriverError } from '../../whatsapp/driver';
import { type ContentColumns, contentColumns, contentJoins, messageContent } from './message-content';
import { outgoingParts, replyAttachment } from './reply-attachment';

interface ConversationRow {
  phone: string;
  connection_id: string;
  contact_id: string | null;
  name: string | null;
  contact_name: string | null;
  last_message_at: Date | string;
  last_message_text: string;
  last_direction: 'in' | 'out';
  unread: number;
  taken_over_until: Date | string | null;
  number_label?: string | null;
  last_source?: Conversation['lastSource'];
  last_author_id?: string | null;
  last_author_name?: string | null;
  status: ConversationStatus;
  assignee_id: string | null;
  assignee_name: string | null;
  queue_id: string | null;
  queue_name: string | null;
}

/** A message without location, card, reaction, quote or file (a campaign's send adds its file). */
const NO_CONTENT: ContentColumns = {
  location: null,
  contact_card: null,
  reaction: null,
  reply_to: null,
  unsupported: null,
  file_id: null,
  file_kind: null,
  file_mime: null,
  file_name: null,
  file_size: null,
  file_duration: null,
  file_voice: null,
  file_state: null,
  quoted_id: null,
  quoted_text: null,
  quoted_kind: null,
};

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * Where the page loads a message's image from: an upload of the account (`upload:<id>`, as campaigns
 * and bot replies keep it) at its address, an http(s) link as it is; anything else is no image.
 */
function imageAddress(ref: string | null): string | null {
  if (!ref) return null;
  const uploadId = uploadIdOf(ref);
  if (uploadId) return uploadUrl(uploadId);
  return /^https?:\/\//i.test(ref) || ref.startsWith(uploadUrl('')) ? ref : null;
}

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
    connectionId: r.connection_id,
    numberLabel: r.number_label ?? null,
    lastSource: r.last_direction === 'out' ? (r.last_source ?? null) : null,
    ...(r.last_direction === 'out' && r.last_author_id
      ? { lastAuthorId: r.last_author_id, lastAuthorName: r.last_author_name ?? null }
      : {}),
    status: r.status,
    assigneeId: r.assignee_id,
    assigneeName: r.assignee_name,
    queueId: r.queue_id,
    queueName: r.queue_name,
  };
}

/**
 * The account's conversations with their contact, number and latest author: every table is read
 * for the account (a conversation's contact, number and messages are its account's).
 */
const selectOf = (userId: string, readerId?: string) => sql`
  select v.phone, coalesce(v.contact_id, c.id) as contact_id, v.name, c.name as contact_name, v.last_message_at,
         v.last_message_text, v.last_direction,
         -- Unread for the login reading: what came since it last opened it, else the team's count.
         ${readerId ? sql`case when r.seen_count is null then v.unread else greatest(v.inbound_count - r.seen_count, 0) end` : sql`v.unread`} as unread,
         v.taken_over_until, v.connection_id, n.label as number_label,
         v.status, v.assignee_id, a.name as assignee_name, v.queue_id, q.name as queue_name,
         lm.source as last_source,
         -- A person's answer: who wrote it (a reply stored before the team named its author is the owner's).
         case when lm.source = 'manual' then coalesce(lm.author_id, v.user_id) end as last_author_id,
         case when lm.source = 'manual' then la.name end as last_author_name
  from conversations v
  -- Who wrote the latest stored message (campaign sends do not move the list): the thread's index finds it.
  left join lateral (select m.source, m.author_id from conversation_messages m
           where ${accountSql(userId, 'm.user_id')} and m.phone = v.phone and m.connection_id = v.connection_id
             and m.source <> 'note'
           order by m.created_at desc limit 1) lm on true
  left join users la on la.id = coalesce(lm.author_id, v.user_id)
  left join contacts c on ${accountSql(userId, 'c.user_id')} and c.phone = '+' || v.phone
  left join connections n on n.id = v.connection_id and ${accountSql(userId, 'n.user_id')}
  -- The assignee is one of the account's logins (its owner, or a member: assignConversation checks).
  left join users a on a.id = v.assignee_id
  left join queues q on q.id = v.queue_id and ${accountSql(userId, 'q.user_id')}
  ${
    readerId
      ? sql`left join conversation_reads r on r.member_id = ${readerId} and r.phone = v.phone
            and r.connection_id = v.connection_id and ${accountSql(userId, 'r.user_id')}`
      : sql``
  }
  where ${accountSql(userId, 'v.user_id')}`;

/**
 * What an agent sees of the inbox: the conversations of the queues they work, those given to them,
 * and those in no queue (an account without queues shares its inbox with everyone, as before). The
 * owner and managers see everything. `v` is the conversation.
 */
function visibleTo(caller: Pick<AccountContext, 'teamRole' | 'actorId'>): SQL {
  if (caller.teamRole !== 'agent') return sql``;
  return sql`and (v.queue_id is null or v.assignee_id = ${caller.actorId}
    or exists (select 1 from queues vq where vq.id = v.queue_id and ${caller.actorId}::uuid = any(vq.member_ids)))`;
}

/**
 * An agent asking for a conversation they may not see (another queue's, given to someone else) is
 * told it is not found, as for another account's. The thread is the one the route means: on the
 * number asked for, else the latest.
 */
export async function assertConversationVisible(
  db: Db,
  caller: Pick<AccountContext, 'userId' | 'teamRole' | 'actorId'>,
  phone: string,
  choice: ThreadChoice = {},
): Promise<void> {
  if (caller.teamRole !== 'agent') return;
  const onNumber = choice.connectionId ? sql`and v.connection_id = ${choice.connectionId}` : sql``;
  const [row] = rowsOf<{ visible: boolean }>(
    await db.execute(sql`
      select (true ${visibleTo(caller)}) as visible from conversations v
      where ${accountSql(caller.userId, 'v.user_id')} and v.phone = ${phone} ${onNumber}
      order by v.last_message_at desc limit 1`),
  );
  if (row && !row.visible) throw new AppError('NOT_FOUND', conversationsMsg.notFound);
}

/** The account's conversations, most recent activity first; `search` on the name or the number. */
export async function listConversations(
  db: Db,
  caller: Pick<AccountContext, 'userId' | 'actorId' | 'teamRole'>,
  q: {
    search?: string;
    limit: number;
    connectionId?: string;
    assignee?: string;
    status?: ConversationStatus;
    queueId?: string;
  },
): Promise<Conversation[]> {
  const { userId } = caller;
  const term = q.search?.trim();
  const onNumber = q.connectionId ? sql`and v.connection_id = ${q.connectionId}` : sql``;
  const assignee =
    q.assignee === undefined
      ? sql``
      : q.assignee === 'none'
        ? sql`and v.assignee_id is null`
        : sql`and v.assignee_id = ${q.assignee === 'me' ? caller.actorId : q.assignee}`;
  const inStatus = q.status ? sql`and v.status = ${q.status}` : sql``;
  const inQueue = q.queueId ? sql`and v.queue_id = ${q.queueId}` : sql``;
  const digits = term?.replace(/\D/g, '') ?? '';
  const filter = term
    ? sql`and (coalesce(c.name, v.name, '') ilike ${`%${term.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}${
        digits.length >= 3 ? sql` or v.phone like ${`%${digits}%`}` : sql``
      })`
    : sql``;
  const rows = rowsOf<ConversationRow>(
    await db.execute(
      sql`${selectOf(userId, caller.actorId)} ${filter} ${onNumber} ${assignee} ${inStatus} ${inQueue} ${visibleTo(caller)} order by v.last_message_at desc limit ${q.limit}`,
    ),
  );
  const now = new Date();
  return rows.map((r) => toConversation(r, now));
}

/** Which conversation of a contact a route means: the one on this number (`/api/connections` id), else the latest. */
export interface ThreadChoice {
  connectionId?: string;
}

/**
 * One of a contact's conversations (one per number): the one on the number asked for, else the one
 * with the latest activity. A contact with none there has an empty conversation (reachable from the
 * contacts page), on the number asked for or the account's default; `connectionId` null when the
 * account has no number at all. A number of another account, or unknown, is not found.
 */
async function findConversation(
  deps: Pick<AppDeps, 'db' | 'connections'>,
  userId: string,
  phone: string,
  choice: ThreadChoice = {},
  readerId?: string,
): Promise<Conversation> {
  const { db } = deps;
  const number = choice.connectionId
    ? rowsOf<{ id: string; label: string }>(
        await db.execute(
          sql`select id, label from connections where id = ${choice.connectionId} and ${accountSql(userId)}`,
        ),
      )[0]
    : undefined;
  if (choice.connectionId && !number) throw new AppError('NOT_FOUND', conversationsMsg.numberNotFound);
  const onNumber = number ? sql`and v.connection_id = ${number.id}` : sql``;
  const row = rowsOf<ConversationRow>(
    await db.execute(
      sql`${selectOf(userId, readerId)} and v.phone = ${phone} ${onNumber} order by v.last_message_at desc limit 1`,
    ),
  )[0];
  if (row) return toConversation(row);
  const contact = rowsOf<{ id: string; name: string; created_at: Date | string }>(
    await db.execute(
      sql`select id, name, created_at from contacts where ${accountSql(userId)} and phone = ${`+${phone}`}`,
    ),
  )[0];
  if (!contact) throw new AppError('NOT_FOUND', conversationsMsg.notFound);
  const fallback = number ?? (await deps.connections.directory.defaultOf(userId));
  return {
    phone,
    contactId: contact.id,
    name: contact.name,
    lastMessageAt: iso(contact.created_at),
    lastMessageText: '',
    lastDirection: 'out',
    unread: 0,
    takenOverUntil: null,
    connectionId: fallback?.id ?? null,
    numberLabel: fallback?.label ?? null,
    status: 'open',
    assigneeId: null,
    assigneeName: null,
    queueId: null,
    queueName: null,
  };
}

/**
 * One conversation and a page of its messages, oldest first: what the contact wrote, the bot's and
 * people's answers, and the campaigns it was sent (from their recipient rows, text as it went out).
 * Opening it marks it read.
 */
export async function getConversation(
  deps: Pick<AppDeps, 'db' | 'connections'>,
  userId: string,
  phone: string,
  q: { before?: string; limit: number } & ThreadChoice,
  /** The login reading it (its unread is its own); the account's owner by default. */
  readerId: string = userId,
): Promise<{ conversation: Conversation; messages: ConversationMessage[] }> {
  const { db } = deps;
  const conversation = await findConversation(deps, userId, phone, q, readerId);
  // A conversation is one number's: its messages, and the campaigns that number sent (those sent
  // before numbers were told apart, with none recorded, show on the default number's).
  const number = conversation.connectionId ?? null;
  const before = q.before ? sql`and m.created_at < ${q.before}::timestamptz` : sql``;
  const beforeCampaign = q.before ? sql`and r.sent_at < ${q.before}::timestamptz` : sql``;
  const own = rowsOf<
    {
      id: string;
      direction: 'in' | 'out';
      source: 'contact' | 'bot' | 'manual' | 'note';
      text: string;
      image_url: string | null;
      status: ConversationMessage['status'];
      failure_reason: string | null;
      created_at: Date | string;
      buttons: ConversationMessage['buttons'] | null;
      choice: ConversationMessage['choice'] | null;
      author: string | null;
    } & ContentColumns
  >(
    await db.execute(sql`
      select m.id, m.direction, m.source, m.text, m.image_url, m.status, m.failure_reason, m.created_at,
             m.buttons, m.choice,
             -- A person's answer is the account user's (one person per account).
             case when m.source in ('manual', 'note') then (select u.name from users u where u.id = coalesce(m.author_id, m.user_id)) end as author,
             ${contentColumns}
      from conversation_messages m
      ${contentJoins(userId)}
      where ${accountSql(userId, 'm.user_id')} and m.phone = ${phone} and m.connection_id = ${number} ${before}
      order by m.created_at desc limit ${q.limit}`),
  );
  // Each campaign's row for this number through the (campaign, recipient) key: cheap whatever the campaign sizes.
  const sent = rowsOf<
    {
      id: string;
      message: string;
      image_url: string | null;
      media_url: string | null;
      name: string;
      email: string | null;
      status: string;
      error: string | null;
      sent_at: Date | string;
      campaign_name: string;
    } & Pick<
      ContentColumns,
      'file_id' | 'file_kind' | 'file_mime' | 'file_name' | 'file_size' | 'file_duration' | 'file_voice' | 'file_state'
    >
  >(
    await db.execute(sql`
      select r.id, c.message, c.image_url, c.media_url, c.name as campaign_name, r.name, r.email, r.status, r.error,
             r.sent_at, f.id as file_id, f.kind as file_kind, f.mime_type as file_mime, f.file_name as file_name,
             f.size as file_size, f.duration_seconds as file_duration, f.voice as file_voice, f.state as file_state
      from campaigns c
      join campaign_recipients r on r.campaign_id = c.id and r.recipient = ${phone}
      -- A campaign's file (media_url upload:<id>), as it went out.
      left join media_uploads f on c.media_url like 'upload:%' and f.id::text = substring(c.media_url from 8)
        and ${accountSql(userId, 'f.user_id')}
      where ${accountSql(userId, 'c.user_id')} and r.kind = 'contact' and r.sent_at is not null ${beforeCampaign}
        and (r.connection_id = ${number} or (r.connection_id is null and exists (
          select 1 from connections n where n.id = ${number} and ${accountSql(userId, 'n.user_id')} and n.is_default)))
      order by r.sent_at desc limit ${q.limit}`),
  );
  const messages: ConversationMessage[] = [
    ...own.map((m) => ({
      id: m.id,
      direction: m.direction,
      source: m.source,
      text: m.text,
      imageUrl: imageAddress(m.image_url),
      status: m.status,
      failureReason: m.failure_reason,
      createdAt: iso(m.created_at),
      author: m.author || null,
      // What the contact saw (the buttons of a bot reply) and answered (the option of a button answer).
      ...(m.buttons?.options?.length ? { buttons: m.buttons } : {}),
      ...(m.choice?.option ? { choice: m.choice } : {}),
      ...messageContent(m),
    })),
    ...sent.map(
      (r): ConversationMessage => ({
        id: r.id,
        direction: 'out',
        source: 'campaign',
        text: personalText(r.message, { recipient: phone, kind: 'contact', name: r.name, email: r.email }),
        // The campaign's image as it went out: a link, or the account's upload (`upload:<id>`).
        // A media_url link is an image link; a file shows as the message's media.
        imageUrl: imageAddress(r.image_url ?? (r.media_url?.startsWith('upload:') ? null : r.media_url)),
        ...messageContent({ ...NO_CONTENT, ...r }),
        status: (['sent', 'delivered', 'read', 'failed'].includes(r.status)
          ? r.status
          : 'sent') as ConversationMessage['status'],
        failureReason: r.status === 'failed' ? r.error : null,
        createdAt: iso(r.sent_at),
        author: r.campaign_name,
      }),
    ),
  ]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, q.limit)
    .reverse();
  if (number) {
    // Read by this login up to now, and by the team (the count of those who never opened it). Both
    // write only what moved: an open conversation polled again changes nothing.
    await db.execute(sql`
      with team as (
        update conversations set unread = 0
        where ${accountSql(userId)} and phone = ${phone} and connection_id = ${number} and unread > 0
      )
      insert into conversation_reads (user_id, member_id, phone, connection_id, seen_count)
      select user_id, ${readerId}::uuid, phone, connection_id, inbound_count from conversations
      where ${accountSql(userId)} and phone = ${phone} and connection_id = ${number}
      on conflict (member_id, phone, connection_id) do update set seen_count = excluded.seen_count
        where conversation_reads.seen_count <> excluded.seen_count`);
    conversation.unread = 0;
  }
  return { conversation, messages };
}

async function handoffMinutes(db: Db, userId: string): Promise<number> {
  const row = rowsOf<{ handoff_minutes: number }>(
    await db.execute(sql`select handoff_minutes from bot_configs where ${accountSql(userId)}`),
  )[0];
  return row?.handoff_minutes ?? 120;
}

/**
 * A person answers from 'Conversas': the message goes out through the conversation's number, is
 * stored in it, and the conversation is taken over (the bot is silent with this contact on this
 * number for the configured time).
 */
export async function sendManualMessage(
  deps: Pick<AppDeps, 'db' | 'drivers' | 'connections' | 'media'>,
  userId: string,
  phone: string,
  input: { text: string; mediaUrl?: string },
  choice: ThreadChoice = {},
  /** Who answers: the owner's or a member's login (the message names them). */
  authorId?: string,
): Promise<Conversation> {
  const { db } = deps;
  const { text } = input;
  const conversation = await findConversation(deps, userId, phone, choice);
  const optedOut = rowsOf<{ opted_out: boolean }>(
    await db.execute(sql`select opted_out from contacts where ${accountSql(userId)} and phone = ${`+${phone}`}`),
  )[0]?.opted_out;
  if (optedOut) throw new AppError('CONFLICT', conversationsMsg.optedOut);
  // Only through the conversation's own number: an answer from another would start another conversation.
  const number = conversation.connectionId;
  const entry = number ? await deps.connections.directory.get(userId, number) : undefined;
  if (!number || !entry) throw new AppError('CONFLICT', conversationsMsg.notConnected);
  const driver = await deps.drivers.getConnection?.(userId, number);
  if (driver?.status().state !== 'connected') {
    throw new AppError('CONFLICT', conversationsMsg.numberNotConnected(entry.label));
  }
  // Resolved once the number can send: a linked file is fetched only for a message that goes out.
  const attachment = input.mediaUrl ? await replyAttachment(deps, userId, input.mediaUrl) : null;
  // A file and its text: one message when the text can be its caption, else the file then the text.
  const parts = outgoingParts(text, attachment);
  for (const part of parts) {
    const record = (
      outcome: { status: 'sent'; providerMessageId: string } | { status: 'failed'; failureReason: string },
    ) =>
      recordOutboundMessage(db, userId, {
        phone,
        connectionId: number,
        source: 'manual',
        text: part.text,
        imageUrl: part.imageUrl,
        mediaId: part.mediaId,
        preview: part.preview,
        authorId,
        ...outcome,
      });
    let providerMessageId: string;
    try {
      // A connection held here reads the file itself; one held elsewhere is handed its id.
      const message = driver.readsUploads
        ? part.message
        : await withAccountFile(part.message, userId, deps.media.openFile);
      ({ providerMessageId } = await driver.send(phone, message));
    } catch (err) {
      const reason = err instanceof DriverError ? err.message : conversationsMsg.sendError;
      await record({ status: 'failed', failureReason: reason.slice(0, 200) });
      throw new AppError(
        'CONFLICT',
        err instanceof DriverError && err.kind === 'template_required' ? reason : conversationsMsg.sendError,
      );
    }
    await record({ status: 'sent', providerMessageId });
  }
  await setTakenOver(db, userId, phone, number, new Date(Date.now() + (await handoffMinutes(db, userId)) * 60_000));
  return findConversation(deps, userId, phone, { connectionId: number });
}

/** Takes a conversation over without answering, or hands it back to the bot. */
export async function setConversationOwner(
  deps: Pick<AppDeps, 'db' | 'connections'>,
  userId: string,
  phone: string,
  person: boolean,
  choice: ThreadChoice = {},
): Promise<Conversation> {
  const { db } = deps;
  const number = (await findConversation(deps, userId, phone, choice)).connectionId;
  // An account without any number has no conversation to hand over.
  if (!number) throw new AppError('CONFLICT', conversationsMsg.notConnected);
  await setTakenOver(
    db,
    userId,
    phone,
    number,
    person ? new Date(Date.now() + (await handoffMinutes(db, userId)) * 60_000) : null,
  );
  return findConversation(deps, userId, phone, { connectionId: number });
}

/**
 * Gives a conversation to a login of the account (its owner, or an active member), or to nobody.
 * The conversation is the one the route means (`?connectionId=`); one never written to is made.
 * The login it is given to is told (a notification of its own), unless it took it itself.
 */
export async function assignConversation(
  deps: Pick<AppDeps, 'db' | 'connections'> & { log: ErrorLog },
  ctx: Pick<AccountContext, 'userId' | 'actorId' | 'member'>,
  phone: string,
  memberId: string | null,
  choice: ThreadChoice = {},
): Promise<Conversation> {
  const { db } = deps;
  const { userId } = ctx;
  const number = (await findConversation(deps, userId, phone, choice)).connectionId;
  if (!number) throw new AppError('CONFLICT', conversationsMsg.notConnected);
  if (memberId) {
    const [login] = rowsOf<{ id: string }>(
      await db.execute(sql`
        select id from users
        where (id = ${userId} or account_id = ${userId}) and id = ${memberId} and is_active`),
    );
    if (!login)
      throw new AppError('NOT_FOUND', conversationsMsg.memberNotFound, { memberId: conversationsMsg.memberNotFound });
  }
  await db.execute(sql`
    insert into conversations (user_id, phone, connection_id, assignee_id, last_message_at)
    values (${userId}, ${phone}, ${number}, ${memberId}::uuid, now())
    on conflict (user_id, phone, connection_id) do update set assignee_id = excluded.assignee_id`);
  const conversation = await findConversation(deps, userId, phone, { connectionId: number });
  if (memberId && memberId !== ctx.actorId) {
    const who = conversation.name && !conversation.name.startsWith('+') ? conversation.name : formatPhone(phone);
    await notify(db, deps.log, memberId, {
      kind: 'conversation_assigned',
      title: notificationMsg.assigned.title,
      body: notificationMsg.assigned.body(who, ctx.member.name),
      link: notificationLinks.conversation(phone, number),
    });
  }
  return conversation;
}

/** Marks where the team stands with a conversation: open, pending (waiting on the contact) or resolved. */
export async function setConversationStatus(
  deps: Pick<AppDeps, 'db' | 'connections'>,
  userId: string,
  phone: string,
  status: ConversationStatus,
  choice: ThreadChoice = {},
): Promise<Conversation> {
  const { db } = deps;
  const number = (await findConversation(deps, userId, phone, choice)).connectionId;
  if (!number) throw new AppError('CONFLICT', conversationsMsg.notConnected);
  await db.execute(sql`
    insert into conversations (user_id, phone, connection_id, status, last_message_at)
    values (${userId}, ${phone}, ${number}, ${status}, now())
    on conflict (user_id, phone, connection_id) do update set status = excluded.status`);
  return findConversation(deps, userId, phone, { connectionId: number });
}

/** The answer's words for a change of state. */
export const statusMessage = (status: ConversationStatus) =>
  conversationsMsg.statusChanged(CONVERSATION_STATUS_LABELS[status]);

/** Lower case, no accents: how a mention and a name are compared. */
const folded = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The members a note's `@word`s name: a word matches a login's first name, its whole name written
 * without spaces, or its username. The note's author is never told of their own note.
 */
export function mentionedIn(text: string, people: Array<{ id: string; name: string; username: string }>) {
  const words = new Set([...text.matchAll(/@([\p{L}\p{N}._-]+)/gu)].map((m) => folded(m[1])));
  if (words.size === 0) return [];
  return people.filter((p) => {
    const name = folded(p.name).trim();
    return (
      words.has(name.split(/\s+/)[0] ?? '') || words.has(name.replace(/\s+/g, '')) || words.has(folded(p.username))
    );
  });
}

/**
 * An internal note in the thread (source `note`): stored with its author, never sent to WhatsApp,
 * never the list's last message nor the AI's context. Each active login it @mentions is notified
 * (a notification of its own login).
 */
export async function addConversationNote(
  deps: Pick<AppDeps, 'db' | 'connections'> & { log: ErrorLog },
  ctx: AccountContext,
  phone: string,
  noteText: string,
  choice: ThreadChoice = {},
): Promise<{ note: ConversationMessage; mentioned: Array<{ id: string; name: string }> }> {
  const { db } = deps;
  const conversation = await findConversation(deps, ctx.userId, phone, choice);
  const number = conversation.connectionId;
  if (!number) throw new AppError('CONFLICT', conversationsMsg.notConnected);
  const [row] = rowsOf<{ id: string; created_at: Date | string }>(
    await db.execute(sql`
      with conversation as (
        insert into conversations (user_id, phone, connection_id, last_message_at)
        values (${ctx.userId}, ${phone}, ${number}, now())
        on conflict (user_id, phone, connection_id) do nothing
      )
      insert into conversation_messages (user_id, phone, connection_id, direction, source, text, status, author_id)
      values (${ctx.userId}, ${phone}, ${number}, 'out', 'note', ${noteText}, 'sent', ${ctx.actorId}::uuid)
      returning id, created_at`),
  );
  const people = rowsOf<{ id: string; name: string; username: string }>(
    await db.execute(sql`
      select id, name, username from users
      where (id = ${ctx.userId} or account_id = ${ctx.userId}) and is_active and id <> ${ctx.actorId}`),
  );
  const mentioned = mentionedIn(noteText, people).map((p) => ({ id: p.id, name: p.name }));
  const who = conversation.name && !conversation.name.startsWith('+') ? conversation.name : formatPhone(phone);
  for (const person of mentioned) {
    await notify(db, deps.log, person.id, {
      kind: 'conversation_mention',
      title: conversationsMsg.mentioned(ctx.member.name, who),
      body: noteText,
      link: notificationLinks.conversation(phone, number),
    });
  }
  return {
    note: {
      id: row.id,
      direction: 'out',
      source: 'note',
      text: noteText,
      imageUrl: null,
      status: 'sent',
      failureReason: null,
      createdAt: iso(row.created_at),
      author: ctx.member.name,
    },
    mentioned,
  };
}
