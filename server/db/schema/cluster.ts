import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';
import { connections } from './whatsapp';

/*
 * What several server processes on one PostgreSQL share to behave as one product
 * (server/cluster/, docs/decisions/039-several-processes-revised.md).
 */

/**
 * The live processes: each holds its row and beats every few seconds; one whose beat is older than
 * the registry's dead-after is gone for everyone (its lanes and connections are taken over).
 */
export const serverProcesses = pgTable(
  'server_processes',
  {
    id: text('id').primaryKey(),
    host: text('host').notNull(),
    pid: integer('pid').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    /** Stopping: takes no new work and hands over what it holds. */
    draining: boolean('draining').notNull().default(false),
  },
  (t) => [index('server_processes_heartbeat_idx').on(t.heartbeatAt)],
);

/** Hits of a rate limit (login, signup…) counted across processes: one row per key and window. */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/**
 * Who holds each personal WhatsApp connection, and the state every process answers the poll with.
 * Only the holder (a live process, by lease) opens the connection; the others read this row.
 */
export const whatsappConnectionLeases = pgTable('whatsapp_connection_leases', {
  connectionId: uuid('connection_id')
    .primaryKey()
    .references(() => connections.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  owner: text('owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  /** The connection's state as the holder last published it (the registry's shape, as JSON). */
  state: text('state'),
  stateAt: timestamp('state_at', { withTimezone: true }),
});

/**
 * One row per account and contact for the chatbot (server/chatbot/turns.ts). The turn: a ticket
 * lock across processes, so one contact's messages are handled one at a time and in the order they
 * arrived, whichever process each webhook reached; `serving` is the ticket whose turn it is, idle
 * when it is past `next_ticket`, and lapses at `lease_until` (a crashed holder). And the last
 * inbound message recorded, swapped atomically as each one is recorded: its previous value decides
 * whether a message opens a new conversation (the welcome), once, even for two at the same time.
 */
export const chatbotTurns = pgTable(
  'chatbot_turns',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The contact's number as the driver gives it (digits). */
    contact: text('contact').notNull(),
    /** The last ticket taken. */
    nextTicket: bigint('next_ticket', { mode: 'number' }).notNull().default(0),
    /** The ticket whose turn it is. */
    serving: bigint('serving', { mode: 'number' }).notNull().default(1),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    /** `last_inbound_at` before the last message was recorded. */
    previousInboundAt: timestamp('previous_inbound_at', { withTimezone: true }),
    /** The last inbound message's time on each of the account's numbers (connection id → ISO time). */
    inboundByNumber: jsonb('inbound_by_number').notNull().default({}),
    /** The last message's number's entry in `inbound_by_number` before it was recorded. */
    previousOnNumber: timestamp('previous_on_number', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.contact] })],
);
