import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { BUSINESS_DAYS, DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_WHATSAPP_SETTINGS } from '../../../contract/constants';
import { users } from './users';

const W = DEFAULT_WHATSAPP_SETTINGS;
const N = DEFAULT_NOTIFICATION_SETTINGS;

/**
 * Per-account settings the server obeys: WhatsApp sending (pacing, daily cap, channel), the one set
 * of business hours (shared by campaigns and the chatbot) and notification preferences. A missing
 * row means every default of SPEC §9.
 */
export const accountSettings = pgTable('account_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  autoReconnect: boolean('auto_reconnect').notNull().default(W.autoReconnect),
  messageDelay: integer('message_delay').notNull().default(W.messageDelay),
  dailyLimit: integer('daily_limit').notNull().default(W.dailyLimit),
  respectBusinessHours: boolean('respect_business_hours').notNull().default(W.respectBusinessHours),
  businessStart: text('business_start').notNull().default(W.businessStart),
  businessEnd: text('business_end').notNull().default(W.businessEnd),
  businessDays: text('business_days')
    .array()
    .notNull()
    .default(sql.raw(`'{${BUSINESS_DAYS.join(',')}}'::text[]`)),
  channel: text('channel', { enum: ['personal', 'cloud'] })
    .notNull()
    .default(W.channel),
  emailNotifications: boolean('email_notifications').notNull().default(N.emailNotifications),
  pushNotifications: boolean('push_notifications').notNull().default(N.pushNotifications),
  campaignUpdates: boolean('campaign_updates').notNull().default(N.campaignUpdates),
  systemAlerts: boolean('system_alerts').notNull().default(N.systemAlerts),
  marketingEmails: boolean('marketing_emails').notNull().default(N.marketingEmails),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
