import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

const owner = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
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
    status: text('status').notNull().default('draft'),
    targetType: text('target_type', { enum: ['all', 'groups', 'contacts'] })
      .notNull()
      .default('all'),
    targetGroups: text('target_groups').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('campaigns_user_created_idx').on(t.userId, t.createdAt)],
);

/** One row per recipient of a campaign: the send job and the report line (counters derive from it). */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: owner(),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    recipient: text('recipient').notNull(),
    status: text('status', {
      enum: ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'],
    })
      .notNull()
      .default('queued'),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('campaign_recipients_campaign_recipient_key').on(t.campaignId, t.recipient),
    index('campaign_recipients_user_status_idx').on(t.userId, t.status),
  ],
);

export const botConfigs = pgTable('bot_configs', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  isEnabled: boolean('is_enabled').notNull().default(true),
  welcomeMessage: text('welcome_message').notNull().default(''),
  aiEnabled: boolean('ai_enabled').notNull().default(false),
  aiModel: text('ai_model').notNull().default('gpt-3.5-turbo'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const autoReplies = pgTable(
  'auto_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    trigger: text('trigger').notNull(),
    response: text('response').notNull(),
    type: text('type', { enum: ['text', 'interactive', 'image'] })
      .notNull()
      .default('text'),
    buttons: jsonb('buttons').notNull().default(sql`'[]'::jsonb`),
    imageUrl: text('image_url').notNull().default(''),
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
      enum: ['inbound', 'welcome', 'auto_reply', 'ai_reply', 'out_of_hours', 'opt_out', 'no_match'],
    }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('bot_events_user_created_idx').on(t.userId, t.createdAt)],
);
