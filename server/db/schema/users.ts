import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    whatsappNumber: text('whatsapp_number').notNull().default(''),
    company: text('company').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    accountType: text('account_type', { enum: ['demo', 'pending', 'active', 'admin', 'regular'] }).notNull(),
    planType: text('plan_type', {
      enum: ['basic', 'professional', 'enterprise', 'premium', 'admin', 'demo'],
    }).notNull(),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    demoExpiresAt: timestamp('demo_expires_at', { withTimezone: true }),
    failedLogins: integer('failed_logins').notNull().default(0),
    lastFailedLoginAt: timestamp('last_failed_login_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** When the account's owner opened the e-mailed confirmation link; null until then. */
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** The account's last request, written at most once a minute (server/modules/presence/presence-tracker.ts). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /**
     * When the owner was last e-mailed that someone tried to sign up with this address: a sign-up
     * answers a taken address like a free one, and these notices are spaced (auth.service.ts).
     */
    signupNoticeAt: timestamp('signup_notice_at', { withTimezone: true }),
    /**
     * A team member's login (server/modules/team): the account it works for, and its role there.
     * Null on an account's own row (its owner) and on administrators. A member's `isActive` is its
     * own (deactivated by the team), its plan and account type are the account's.
     */
    accountId: uuid('account_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    teamRole: text('team_role', { enum: ['manager', 'agent'] }),
    /** When the login turned two-factor sign-in on (its secret is in `two_factor_secrets`); null while off. */
    twoFactorAt: timestamp('two_factor_at', { withTimezone: true }),
    /** On an account's own row: every login of the account must sign in with a second factor. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  },
  (t) => [
    index('users_account_idx').on(t.accountId),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    // Demo accounts may repeat an e-mail: a visitor can start another demo.
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`).where(sql`${t.accountType} <> 'demo'`),
    index('users_demo_expires_idx').on(t.demoExpiresAt),
    index('users_last_seen_idx').on(t.lastSeenAt),
  ],
);

/** Server-side sessions: only a SHA-256 of the random token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Recent failed sign-ins per client address and login (server/modules/auth), driving the growing
 * delay. `loginKey` is `user:<id>` when the name typed matched an account, otherwise
 * `name:<the name in lower case>`, so unknown names are counted, and slowed, like accounts. Rows
 * older than the 15-minute window count for nothing and are deleted as failures come in.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    ip: text('ip').notNull(),
    loginKey: text('login_key').notNull(),
    failures: integer('failures').notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.loginKey] }), index('login_failures_last_failed_idx').on(t.lastFailedAt)],
);

/**
 * Links of 'Esqueci minha senha' (server/modules/auth/password-reset.service.ts): only a SHA-256 of
 * the random token is stored. A link works once, until `expiresAt`; a new request or a reset spends
 * every earlier one (`spentAt`). Rows stay a day so the requests of the last hour can be counted.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
    /** The client address that asked for the link: links are limited per address and per requester. */
    requestedIp: text('requested_ip').notNull().default(''),
  },
  (t) => [
    index('password_reset_tokens_user_idx').on(t.userId, t.createdAt),
    index('password_reset_tokens_created_idx').on(t.createdAt),
    index('password_reset_tokens_ip_idx').on(t.requestedIp, t.createdAt),
  ],
);

/** Each time an account gets a paid plan (approval or plan change). Feeds the demo purchase notice. */
export const planActivations = pgTable(
  'plan_activations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    planType: text('plan_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('plan_activations_created_idx').on(t.createdAt)],
);

/** An account as stored. */
export type UserRow = typeof users.$inferSelect;

/** 'Confirme seu email' links: the SHA-256 of each link's token; a used link's row is deleted. */
export const emailConfirmationTokens = pgTable(
  'email_confirmation_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('email_confirmation_tokens_user_idx').on(t.userId),
    index('email_confirmation_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Invitations to join an account's team (server/modules/team): the e-mailed link carries 32 random
 * bytes, of which only the SHA-256 is kept. A link works once (`acceptedAt`), until `expiresAt`.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['manager', 'agent'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    memberId: uuid('member_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('team_invitations_token_idx').on(t.tokenHash), index('team_invitations_user_idx').on(t.userId)],
);
export type TeamInvitationRow = typeof teamInvitations.$inferSelect;

/**
 * A login's TOTP secret (RFC 6238; server/modules/auth/two-factor.service.ts), sealed with the
 * server's encryption key, and the SHA-256 of each of its unused recovery codes. `confirmedAt` is
 * null between setup and the first good code. `lastStep` is the time step of the last code
 * accepted: a code is never taken twice.
 */
export const twoFactorSecrets = pgTable('two_factor_secrets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: integer('last_step').notNull().default(0),
  recoveryCodes: text('recovery_codes').array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A sign-in halfway: the password was right and the second factor is awaited. The browser holds
 * the random token in a cookie; only its SHA-256 is kept, for 5 minutes and 5 wrong codes.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_challenges_user_idx').on(t.userId), index('login_challenges_expires_idx').on(t.expiresAt)],
);
