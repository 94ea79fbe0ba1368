import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

const owner = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * The personal-number connection an account asked for; restored at start-up while `active`.
 * The live state (QR, connecting…) lives in memory (ConnectionRegistry), not here.
 */
export const whatsappConnections = pgTable('whatsapp_connections', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  driver: text('driver', { enum: ['baileys', 'simulator'] }).notNull(),
  active: boolean('active').notNull().default(true),
  phoneNumber: text('phone_number'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Baileys auth state: the `creds` row and one row per signal key (`<type>-<id>`), each value
 * serialised with BufferJSON and encrypted with ENCRYPTION_KEY.
 */
export const whatsappAuthKeys = pgTable(
  'whatsapp_auth_keys',
  {
    userId: owner(),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Official Cloud API credentials of an account (tokens encrypted, never returned). */
export const whatsappBusinessAccounts = pgTable(
  'whatsapp_business_accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
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
  (t) => [uniqueIndex('whatsapp_business_accounts_webhook_key_idx').on(t.webhookKey)],
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
