import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BOT_EVENT_KINDS } from '../../../contract/bot';
import { users } from './users';
import { connections } from './whatsapp';

const owner = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
/** Raw bytes (PostgreSQL bytea). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    optedOut: boolean('opted_out').notNull().default(false),
    /** When the contact opted out by writing to one of the account's numbers, and which one (its health). */
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    optedOutVia: uuid('opted_out_via'),
    /** Lower-cased, accent-free name plus the phone digits: what the contacts search matches. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn') || ' ' || replace(phone, '+', '')`,
      ),
    /** Result of the last WhatsApp number check (null: never checked) and when it was made. */
    isWhatsappActive: boolean('is_whatsapp_active'),
    whatsappCheckedAt: timestamp('whatsapp_checked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // Also serves every per-account lookup (user_id is its first column): one index less to maintain on import.
    uniqueIndex('contacts_user_phone_idx').on(t.userId, t.phone),
    index('contacts_user_search_idx').on(t.userId, t.searchText, t.id),
    // The opt-outs a number received lately (its card's health): only opted-out contacts are in it.
    index('contacts_opted_out_via_idx').on(t.optedOutVia, t.optedOutAt).where(sql`opted_out`),
  ],
);

export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    name: text('name').notNull(),
    whatsappGroupId: text('whatsapp_group_id').notNull().default(''),
    membersCount: integer('members_count').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groups_user_name_idx').on(t.userId, sql`lower(${t.name})`)],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    name: text('name').notNull(),
    message: text('message').notNull(),
    status: text('status', {
      enum: ['draft', 'scheduled', 'sending', 'in_progress', 'paused', 'cancelled', 'completed', 'failed'],
    })
      .notNull()
      .default('draft'),
    targetType: text('target_type', { enum: ['all', 'groups', 'contacts'] })
      .notNull()
      .default('all'),
    targetGroups: text('target_groups').array().notNull().default(sql`'{}'::text[]`),
    /** Narrows a `contacts` audience to contacts carrying any of these tags (empty: all). */
    targetTags: text('target_tags').array().notNull().default(sql`'{}'::text[]`),
    /** An image sent with the message as caption: an http(s) URL or `upload:<id>` of the account's uploads. */
    imageUrl: text('image_url'),
    /** Any file sent with the message: `upload:<id>` of one of the account's files, or an image link. */
    mediaUrl: text('media_url'),
    /** A location sent after the message (`{ latitude, longitude, name?, address? }`). */
    location: jsonb('location'),
    /** A contact card sent after the message (`{ name, phone }`). */
    contactCard: jsonb('contact_card'),
    /** Cloud API channel: an approved template and how its variables are filled. */
    templateName: text('template_name'),
    templateLanguage: text('template_language'),
    templateVariables: jsonb('template_variables').notNull().default(sql`'[]'::jsonb`),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    /** The numbers that send it (`connections.id`); empty: the account's default number. */
    connectionIds: uuid('connection_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Why the engine paused it by itself (burst of failures, spam limit…), shown on the card. */
    pauseReason: text('pause_reason'),
    /** While in_progress: why it waits (outside_hours, daily_limit, offline, messaging_limit). */
    waitingReason: text('waiting_reason'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_user_created_idx').on(t.userId, t.createdAt),
    index('campaigns_active_idx')
      .on(t.status, t.scheduledAt)
      .where(sql`status in ('scheduled', 'sending', 'in_progress')`),
  ],
);

/**
 * One row per recipient of a campaign: the send job and the report line (counters derive from it).
 * queued → sending → sent → delivered → read, or failed / skipped with the reason.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    // No foreign keys to the account or the contact: the campaign's own key already ties the row to
    // its account (deleting either removes it), and a deleted contact keeps its report line. Each
    // foreign key would be one more lookup per row when a campaign of 100,000 starts.
    userId: uuid('user_id').notNull(),
    contactId: uuid('contact_id'),
    /** E.164 digits for a contact, the WhatsApp group id for a group. */
    recipient: text('recipient').notNull(),
    kind: text('kind', { enum: ['contact', 'group'] })
      .notNull()
      .default('contact'),
    /** Name and e-mail as they were at start: what {{nome}} and {{email}} become. */
    name: text('name').notNull().default(''),
    email: text('email'),
    status: text('status', {
      enum: ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'],
    })
      .notNull()
      .default('queued'),
    /** Chosen before the send where the driver allows it, so a receipt after a crash finds the row. */
    providerMessageId: text('provider_message_id'),
    /** The number that sent (or will send) it; null before numbers were connections. */
    connectionId: uuid('connection_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** The process that claimed the row for sending, and until when the claim holds. */
    claimedBy: text('claimed_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('campaign_recipients_campaign_recipient_key').on(t.campaignId, t.recipient),
    index('campaign_recipients_campaign_status_idx').on(t.campaignId, t.status),
    index('campaign_recipients_user_status_idx').on(t.userId, t.status),
    index('campaign_recipients_due_idx').on(t.userId, t.dueAt).where(sql`status = 'queued'`),
    index('campaign_recipients_message_idx').on(t.providerMessageId).where(sql`provider_message_id is not null`),
    index('campaign_recipients_claimed_idx').on(t.leaseUntil).where(sql`status = 'sending'`),
    index('campaign_recipients_user_sent_idx').on(t.userId, t.sentAt).where(sql`sent_at is not null`),
    // A number that stops hands its queued rows back (failover): found without a scan.
    index('campaign_recipients_connection_queued_idx')
      .on(t.connectionId)
      .where(sql`status = 'queued' and connection_id is not null`),
  ],
);

/**
 * One sending lane per account (its WhatsApp connection): which process dispatches it (a lease it
 * renews), when the next message may go, and the warm-up of a newly connected number.
 */
export const sendingLanes = pgTable('sending_lanes', {
  /** The number the lane sends through. */
  connectionId: uuid('connection_id')
    .primaryKey()
    .references(() => connections.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  owner: text('owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  nextSendAt: timestamp('next_send_at', { withTimezone: true }).notNull().defaultNow(),
  /** First send of the current warm-up (restarts after 72 h without sending). */
  warmupStartedAt: timestamp('warmup_started_at', { withTimezone: true }),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
});

/** Messages composed in 'Compor Nova Mensagem' (SPEC §3 Message to compose), usable as campaign content. */
export const savedMessages = pgTable(
  'saved_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    title: text('title').notNull(),
    type: text('type', { enum: ['contacts', 'groups'] })
      .notNull()
      .default('contacts'),
    enableMessage: boolean('enable_message').notNull().default(true),
    hasImage: boolean('has_image').notNull().default(false),
    imageUrl: text('image_url').notNull().default(''),
    imageFile: text('image_file').notNull().default(''),
    /** The stored upload behind `imageFile`, when the image was uploaded. */
    uploadId: uuid('upload_id'),
    /** Any file sent with the message: `upload:<id>` of one of the account's files. */
    mediaUrl: text('media_url'),
    content: text('content').notNull(),
    contentType: text('content_type', { enum: ['text', 'html'] })
      .notNull()
      .default('text'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('saved_messages_user_idx').on(t.userId, t.createdAt)],
);

/**
 * The account's files: those it uploaded, and those its contacts sent (`origin` 'inbound'), served
 * only to their owner. Their bytes are in the media store (server/media/store.ts) under
 * `storage_key`; a received file's are fetched in the background while `state` is 'pending'. `data`
 * holds an image uploaded by an earlier version until the chore moves it to the store
 * (docs/decisions/044-images-in-the-media-store.md).
 */
export const mediaUploads = pgTable(
  'media_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    data: bytea('data'),
    createdAt: createdAt(),
    /** image | document | audio | video | sticker */
    kind: text('kind').notNull().default('image'),
    /** upload | inbound */
    origin: text('origin').notNull().default('upload'),
    /** pending | ready | failed */
    state: text('state').notNull().default('ready'),
    storageKey: text('storage_key'),
    sha256: text('sha256'),
    durationSeconds: integer('duration_seconds'),
    voice: boolean('voice').notNull().default(false),
    /** A received file: the number it came through and where the driver fetches it (InboundMediaSource), until fetched. */
    connectionId: uuid('connection_id'),
    source: jsonb('source'),
    error: text('error'),
  },
  (t) => [
    index('media_uploads_user_idx').on(t.userId, t.createdAt),
    // Images uploaded before the media store, until the chore moves them there (legacy-images.ts).
    index('media_uploads_legacy_idx').on(t.id).where(sql`data is not null`),
  ],
);

/**
 * The media store's bytes on PostgreSQL (server/media/store.ts), in chunks so that no file is
 * ever one value in memory: every process reads every file.
 */
export const mediaChunks = pgTable(
  'media_chunks',
  {
    key: text('key').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

export const botConfigs = pgTable('bot_configs', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  isEnabled: boolean('is_enabled').notNull().default(true),
  welcomeMessage: text('welcome_message').notNull().default(''),
  aiEnabled: boolean('ai_enabled').notNull().default(false),
  aiModel: text('ai_model').notNull().default('gpt-3.5-turbo'),
  /** Sent at most once a day per contact outside business hours; empty = the bot answers at any hour. */
  outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
  /** The business described by the customer, for the AI's system prompt. */
  aiInstructions: text('ai_instructions').notNull().default(''),
  /** How long a person's answer silences the bot for that contact. */
  handoffMinutes: integer('handoff_minutes').notNull().default(120),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const autoReplies = pgTable(
  'auto_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    trigger: text('trigger').notNull(),
    response: text('response').notNull(),
    type: text('type', { enum: ['text', 'interactive', 'image', 'document', 'audio', 'video', 'location', 'contact'] })
      .notNull()
      .default('text'),
    buttons: jsonb('buttons').notNull().default(sql`'[]'::jsonb`),
    imageUrl: text('image_url').notNull().default(''),
    /** The file a document, audio or video rule sends: `upload:<id>` of one of the account's files. */
    mediaUrl: text('media_url').notNull().default(''),
    /** What a location rule sends (`{ latitude, longitude, name?, address? }`). */
    location: jsonb('location'),
    /** What a contact rule sends (`{ name, phone }`). */
    contactCard: jsonb('contact_card'),
    /** The queue a conversation goes to when the rule matches (a handoff to that team), or null. */
    queueId: uuid('queue_id').references((): AnyPgColumn => queues.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('auto_replies_user_idx').on(t.userId, t.position)],
);

/** Every step the chatbot takes; bot metrics are counts over these rows. */
export const botEvents = pgTable(
  'bot_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    contactPhone: text('contact_phone').notNull(),
    kind: text('kind', {
      enum: BOT_EVENT_KINDS,
    }).notNull(),
    /** What the step decided (the matched trigger, the failure), never message text. */
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('bot_events_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * One conversation per account, number and contact (E.164 digits): what the 'Conversas' list shows,
 * the handoff to a person, and the chatbot's memory (welcome after 24 h of silence, the out-of-hours
 * message once a day). A contact who writes to two of the account's numbers has two conversations.
 */
export const conversations = pgTable(
  'conversations',
  {
    userId: owner(),
    phone: text('phone').notNull(),
    contactId: uuid('contact_id'),
    name: text('name'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageText: text('last_message_text').notNull().default(''),
    lastDirection: text('last_direction', { enum: ['in', 'out'] })
      .notNull()
      .default('in'),
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    unread: integer('unread').notNull().default(0),
    /** The contact's messages ever stored in it: a login's unread is this less what it had seen (conversation_reads). */
    inboundCount: integer('inbound_count').notNull().default(0),
    takenOverUntil: timestamp('taken_over_until', { withTimezone: true }),
    /** The São Paulo day the out-of-hours message was last sent ('YYYY-MM-DD'). */
    outOfHoursDay: text('out_of_hours_day'),
    /** The account's number this conversation is on: replies go out through it; the campaigns' sticky sender. */
    connectionId: uuid('connection_id').notNull(),
    createdAt: createdAt(),
    /** Where the team stands with it (contract/conversations.ts): a new message reopens a resolved one. */
    status: text('status', { enum: ['open', 'pending', 'resolved'] })
      .notNull()
      .default('open'),
    /** The team member (or the owner) it is assigned to; null when nobody has it. */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** The queue it is in (its number's, or the one the chatbot handed it to); null: none. */
    queueId: uuid('queue_id').references(() => queues.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.phone, t.connectionId] }),
    index('conversations_user_last_idx').on(t.userId, t.lastMessageAt),
    index('conversations_assignee_idx').on(t.userId, t.assigneeId, t.lastMessageAt),
  ],
);

/**
 * How far each login of the account has read a conversation: the conversation's `inbound_count`
 * when it last opened it. A login without a row sees the team's count (`unread`, new since anyone
 * opened it); from its first opening on, its own.
 */
export const conversationReads = pgTable(
  'conversation_reads',
  {
    userId: owner(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    connectionId: uuid('connection_id').notNull(),
    seenCount: integer('seen_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.phone, t.connectionId] }),
    index('conversation_reads_user_idx').on(t.userId),
  ],
);

/**
 * Every message of a conversation except campaign sends, which stay in `campaign_recipients` and
 * are shown with these: inbound ones, the bot's replies and a person's answers.
 */
export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    phone: text('phone').notNull(),
    /** The number of the conversation (the one the contact wrote to, or the one that answered). */
    connectionId: uuid('connection_id').notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    source: text('source', { enum: ['contact', 'bot', 'manual'] }).notNull(),
    /** Who wrote a person's answer (`manual`): the owner's or a team member's login; null for the rest. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull().default(''),
    imageUrl: text('image_url'),
    status: text('status', { enum: ['received', 'queued', 'sent', 'delivered', 'read', 'failed'] }).notNull(),
    failureReason: text('failure_reason'),
    providerMessageId: text('provider_message_id'),
    createdAt: createdAt(),
    /** Outbound: the buttons sent, `{ numbered, options: [{ text, type, value }] }` (contract/conversations.ts). */
    buttons: jsonb('buttons'),
    /** Inbound answer to buttons: `{ option, number? }`. */
    choice: jsonb('choice'),
    /** A file it carries (media_uploads.id). */
    mediaId: uuid('media_id'),
    /** `{ latitude, longitude, name?, address? }` */
    location: jsonb('location'),
    /** `{ name, phone }` */
    contactCard: jsonb('contact_card'),
    /** `{ emoji, providerMessageId }` */
    reaction: jsonb('reaction'),
    /** The provider id of the message it quotes. */
    replyTo: text('reply_to'),
    /** A kind of message not shown (its WhatsApp name). */
    unsupported: text('unsupported'),
  },
  (t) => [
    index('conversation_messages_thread_idx').on(t.userId, t.phone, t.connectionId, t.createdAt),
    index('conversation_messages_provider_idx').on(t.providerMessageId).where(sql`provider_message_id is not null`),
  ],
);

/** A team's ready answers for Conversas (`/atalho`): one shortcut per account, in lower case. */
export const quickReplies = pgTable(
  'quick_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    shortcut: text('shortcut').notNull(),
    text: text('text').notNull(),
    /** The account's file sent with the text; a deleted file leaves the text alone. */
    mediaUploadId: uuid('media_upload_id').references(() => mediaUploads.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('quick_replies_shortcut_unique').on(t.userId, t.shortcut)],
);

/**
 * The team's queues (contract/queues.ts): the numbers whose conversations go to each, who works it,
 * its hours (null: always open) and out-of-hours message, and how its conversations are given out.
 */
export const queues = pgTable(
  'queues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    name: text('name').notNull(),
    connectionIds: uuid('connection_ids').array().notNull().default(sql`'{}'::uuid[]`),
    memberIds: uuid('member_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** `{ start, end, days }` as the bot's business hours; null: around the clock. */
    hours: jsonb('hours'),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    assignment: text('assignment', { enum: ['manual', 'round_robin'] })
      .notNull()
      .default('manual'),
    /** Round robin: the member given the latest conversation (the next one goes to whoever follows). */
    lastAssigneeId: uuid('last_assignee_id'),
    createdAt: createdAt(),
  },
  (t) => [unique('queues_name_unique').on(t.userId, t.name)],
);
