import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Per-account settings the server obeys: WhatsApp sending (pacing, daily cap, channel), the one set
 * of business hours (shared by campaigns and the chatbot) and notification preferences. A missing
 * row means every default of SPEC §9.
 */
export const accountSettings = pgTable('account_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  autoReconnect: boolean('auto_reconnect').notNull().default(true),
  messageDelay: integer('message_delay').notNull().default(2),
  dailyLimit: integer('daily_limit').notNull().default(1000),
  respectBusinessHours: boolean('respect_business_hours').notNull().default(true),
  businessStart: text('business_start').notNull().default('09:00'),
  businessEnd: text('business_end').notNull().default('18:00'),
  businessDays: text('business_days')
    .array()
    .notNull()
    .default(sql`'{monday,tuesday,wednesday,thursday,friday}'::text[]`),
  channel: text('channel', { enum: ['personal', 'cloud'] })
    .notNull()
    .default('personal'),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  pushNotifications: boolean('push_notifications').notNull().default(true),
  campaignUpdates: boolean('campaign_updates').notNull().default(true),
  systemAlerts: boolean('system_alerts').notNull().default(false),
  marketingEmails: boolean('marketing_emails').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
