import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Work for later (server/jobs/, docs/decisions/030-jobs-table.md): one row per job, written in the
 * transaction of the change that causes it, claimed by one live process at a time under a lease,
 * retried with backoff and kept `dead` with its error once it used its attempts.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The job's definition (defineJob's name). */
    name: text('name').notNull(),
    /** Checked against the definition's zod schema when enqueued and when run. */
    payload: jsonb('payload').notNull(),
    /** queued | running | done | dead */
    state: text('state').notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** Runs started, the current one included. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    /** The process (server_processes.id) that holds a running job, until `lease_until`. */
    claimedBy: text('claimed_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** At most one unfinished job per key (a second enqueue is a no-op); cancel() finds it. */
    dedupeKey: text('dedupe_key'),
    /** The account the job works for, when it is one's. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    // The runners' claim: due queued rows, and running ones whose lease lapsed.
    index('jobs_queued_run_at_idx').on(t.runAt).where(sql`${t.state} = 'queued'`),
    index('jobs_running_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'running'`),
    uniqueIndex('jobs_dedupe_key_idx').on(t.dedupeKey).where(sql`${t.state} in ('queued', 'running')`),
    // The administrator's counts by name and state, and the pruning of finished rows.
    index('jobs_state_name_idx').on(t.state, t.name),
    index('jobs_user_idx').on(t.userId),
  ],
);
