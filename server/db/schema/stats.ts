import { date, index, integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';
import { campaigns } from './workspace';

/*
 * Hourly rollups behind the dashboard and report figures (contract/metrics.ts defines each figure).
 * They are derived data: database triggers keep them in step with the rows they count, in the same
 * statement that changes those rows, and `stats_rebuild(user_id)` recomputes them from the rows
 * (migration 0006_metrics holds both). Nothing in the application writes them.
 *
 * `hour` is a São Paulo wall-clock hour (timestamp without time zone, e.g. 2026-11-22 23:00): every
 * figure is defined in São Paulo days, hours and weekdays, so a period, a day, an hour of the day and
 * a weekday are read straight from it, with no time-zone conversion per row when reading.
 */

const counter = (name: string) => integer(name).notNull().default(0);
const spHour = () => timestamp('hour', { mode: 'string' }).notNull();

/**
 * Campaign messages per campaign and hour: `sent`, `delivered` and `read` in the hour the message
 * was sent (a message delivered or read later still counts in its send hour), `failed` in the hour
 * it failed.
 */
export const statsCampaignHours = pgTable(
  'stats_campaign_hours',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    hour: spHour(),
    userId: uuid('user_id').notNull(),
    sent: counter('sent'),
    delivered: counter('delivered'),
    read: counter('read'),
    failed: counter('failed'),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.hour] }),
    index('stats_campaign_hours_user_hour_idx').on(t.userId, t.hour),
  ],
);

/**
 * The chatbot and conversations per account and hour: replies the bot sent, messages contacts sent,
 * how many of those were answered (in the hour of the message answered), and conversations (a
 * contact who wrote on a São Paulo day, counted once, in the bucket where that day starts).
 */
export const statsChatHours = pgTable(
  'stats_chat_hours',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hour: spHour(),
    botReplies: counter('bot_replies'),
    inbound: counter('inbound'),
    answered: counter('answered'),
    conversations: counter('conversations'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour] })],
);

/**
 * Contacts per account and the São Paulo day they were created: all of them, and the active, not
 * opted-out ones. By day, not hour: an account's count is the sum of these rows, at most one a day.
 */
export const statsContactDays = pgTable(
  'stats_contact_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    total: counter('total'),
    active: counter('active'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * Each WhatsApp number's own figures per São Paulo hour, for its card's health
 * (docs/decisions/027-number-figures-by-trigger.md): campaign messages sent (`sent_at` in the hour,
 * whatever the message's later status), failed (`failed_at` in the hour) and, of those, blocked
 * (the contact cannot receive from the number: sending/failures.ts, `stats_is_block`), and messages
 * received on the number. Kept by triggers on inserts and updates of the rows; a deleted campaign
 * leaves its messages counted (the number did send them).
 */
export const statsNumberHours = pgTable(
  'stats_number_hours',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // No foreign key: a report line may name a number that is gone (or another account's, which
    // counts under its own account only, never on the number's card).
    connectionId: uuid('connection_id').notNull(),
    hour: spHour(),
    sent: counter('sent'),
    failed: counter('failed'),
    blocked: counter('blocked'),
    inbound: counter('inbound'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.connectionId, t.hour] })],
);
