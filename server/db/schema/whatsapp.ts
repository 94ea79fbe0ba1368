import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ConnectionSettings } from '../../../contract/connections';
import { users } from './users';

const owner = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * An account's WhatsApp numbers (docs/decisions/040-many-numbers-revised.md): personal numbers (WhatsApp
 * Web protocol) and Cloud API numbers (their credentials in `whatsapp_business_accounts`). One per
 * account is the default (the spec's routes and campaigns without `connectionIds`). A removed number
 * keeps its row (`deleted_at`) so reports still name who sent each message.
 */
export const connections = pgTable(
  'connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['personal', 'cloud'] }).notNull(),
    label: text('label').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** Takes no campaign recipients while set (still receives and answers). */
    paused: boolean('paused').notNull().default(false),
    /** Personal numbers: which driver pairs it; restored at start-up while `active`. */
    driver: text('driver', { enum: ['baileys', 'simulator'] }),
    active: boolean('active').notNull().default(false),
    /** Digits as the driver last reported them (personal) or the display number (Cloud). */
    phoneNumber: text('phone_number'),
    /** The number's own sending settings; an absent field is the account's. */
    settings: jsonb('settings').$type<ConnectionSettings>().notNull().default({}),
    /** The last restriction WhatsApp reported (463, 131048, 131056…) and when; it counts for 24 h (RESTRICTION_MS). */
    restrictedCode: text('restricted_code'),
    restrictedAt: timestamp('restricted_at', { withTimezone: true }),
    /** Why the number's lane takes no recipients now (disconnected, restricted, logged_out, daily_limit, paused), and since when. */
    stopReason: text('stop_reason', { enum: ['disconnected', 'restricted', 'logged_out', 'daily_limit', 'paused'] }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** The chatbot answers on this number (the account's bot configuration, on or off per number). */
    botEnabled: boolean('bot_enabled').notNull().default(true),
    /** Set when the device was unlinked from the phone (not by us): it needs a new QR code. */
    loggedOutAt: timestamp('logged_out_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('connections_user_idx').on(t.userId),
    uniqueIndex('connections_default_idx').on(t.userId).where(sql`is_default and deleted_at is null`),
  ],
);

/**
 * Baileys auth state: the `creds` row and one row per signal key (`<type>-<id>`), each value
 * serialised with BufferJSON and encrypted with ENCRYPTION_KEY.
 */
export const whatsappAuthKeys = pgTable(
  'whatsapp_auth_keys',
  {
    userId: owner(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.key] })],
);

/** Official Cloud API credentials of a Cloud number (tokens encrypted, never returned). */
export const whatsappBusinessAccounts = pgTable(
  'whatsapp_business_accounts',
  {
    connectionId: uuid('connection_id')
      .primaryKey()
      .references(() => connections.id, { onDelete: 'cascade' }),
    userId: owner(),
    phoneNumberId: text('phone_number_id').notNull(),
    businessAccountId: text('business_account_id'),
    appId: text('app_id'),
    accessToken: text('access_token').notNull(),
    appSecret: text('app_secret'),
    /** Public key of the webhook URL, so the URL does not reveal the account id. */
    webhookKey: text('webhook_key').notNull(),
    verifyToken: text('verify_token').notNull(),
    displayPhoneNumber: text('display_phone_number'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_business_accounts_webhook_key_idx').on(t.webhookKey),
    // One phone number id sends for one connection of one account (one lane at its Meta tier).
    uniqueIndex('whatsapp_business_accounts_phone_number_idx').on(t.phoneNumberId),
    index('whatsapp_business_accounts_user_idx').on(t.userId),
  ],
);

/** Webhook deliveries already applied (Meta retries and duplicates): one row per message or status. */
export const whatsappWebhookEvents = pgTable(
  'whatsapp_webhook_events',
  {
    userId: owner(),
    eventKey: text('event_key').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventKey] })],
);

/** Inbound messages as received from any driver (the chatbot reads them later). */
export const whatsappInboundMessages = pgTable(
  'whatsapp_inbound_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    channel: text('channel', { enum: ['baileys', 'cloud', 'simulator'] }).notNull(),
    /** The number the message arrived on (null: before numbers were connections). */
    connectionId: uuid('connection_id').references(() => connections.id, { onDelete: 'set null' }),
    fromPhone: text('from_phone').notNull(),
    text: text('text').notNull(),
    buttonId: text('button_id'),
    providerMessageId: text('provider_message_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_inbound_user_provider_idx').on(t.userId, t.providerMessageId),
    index('whatsapp_inbound_user_received_idx').on(t.userId, t.receivedAt),
  ],
);

/**
 * The media ids a Cloud API number got for the account's files (`POST /{phone-number-id}/media`),
 * shared by every process: a file is uploaded once per number, whichever process sends it and across
 * restarts, and reused while Meta keeps it (30 days; we trust 29).
 */
export const cloudMediaIds = pgTable(
  'cloud_media_ids',
  {
    userId: owner(),
    phoneNumberId: text('phone_number_id').notNull(),
    /** `file:<id>` of one of the account's files, or `sha256:<hex>` of bytes read from a link. */
    fileKey: text('file_key').notNull(),
    mediaId: text('media_id').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.phoneNumberId, t.fileKey] })],
);
