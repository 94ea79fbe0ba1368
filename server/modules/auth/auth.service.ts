import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type {
  Credentials,
  DemoSignupInput,
  LandingSignupInput,
  LoginInput,
  RegisterInput,
  User,
} from '../../../contract/auth';
import { DEMO_DURATION_MS } from '../../../contract/constants';
import { msg } from '../../../contract/messages';
import { notificationLinks, notificationMsg } from '../../../contract/notifications';
import { teamMsg, teamRoleOf } from '../../../contract/team';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { UserRow } from '../../db/schema';
import { loginFailures, sessions, users } from '../../db/schema';
import { AppError } from '../../errors';
import { type ErrorLog, notifyAdmins } from '../../records/notify';
import type { SessionStore } from '../../sessions/session-store';
import { seedDemoWorkspace } from './demo-data';
import { burnPasswordCheck, generatePassword, hashPassword, loginDelayMs, verifyPassword } from './password';
import { openLoginChallenge } from './two-factor.service';

/**
 * The signed-in login as the API shows it. A team member's own row gives who it is (id, name,
 * e-mail, username); the account it works for gives what it may do (type, plan, demo expiry).
 */
export function toPublicUser(u: UserRow, account: UserRow = u): User {
  const member = u.id !== account.id;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    username: u.username,
    whatsappNumber: u.whatsappNumber,
    accountType: account.accountType,
    planType: account.planType,
    isActive: member ? u.isActive && account.isActive : u.isActive,
    createdAt: u.createdAt.toISOString(),
    demoExpiresAt: account.demoExpiresAt ? account.demoExpiresAt.toISOString() : null,
    emailConfirmedAt: u.emailConfirmedAt ? u.emailConfirmedAt.toISOString() : null,
    teamRole: teamRoleOf(u),
    ...(member ? { accountName: account.company || account.name } : {}),
    twoFactorEnabled: u.twoFactorAt !== null,
    twoFactorSetupRequired: account.requireTwoFactor && u.twoFactorAt === null,
  };
}

async function findByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  // Users sign in with their username; the e-mail works too (pending accounts got generated usernames).
  const rows = await db
    .select()
    .from(users)
    .where(
      login.includes('@')
        ? sql`lower(${users.email}) = lower(${login}) and ${users.accountType} <> 'demo'`
        : sql`lower(${users.username}) = lower(${login})`,
    )
    .limit(1);
  return rows[0];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The growing delay after failed sign-ins is counted per (client address, login) in the database:
 * - per address, so an attacker's failures never slow the owner signing in from elsewhere; and
 *   there is deliberately no per-account component on top. A delay only holds back a client that
 *   waits for its answers: an attacker spread over many addresses sends in parallel and loses
 *   nothing, while the owner would wait the whole of it — the very attack it would enable. Each
 *   address is also held to LOGIN_RATE_LIMIT attempts a minute, and argon2id makes each guess cost;
 * - per login, whether or not an account has that name, and an unknown name costs the same
 *   password-hash work, queries and delay as a wrong password: the answer's timing does not tell
 *   which usernames exist;
 * - in the database, so attempts sent at once each count (an upsert, none overwrites another),
 *   and several server processes on one PostgreSQL share the count.
 * A known account is keyed by its id, so its username and its e-mail share one count; an unknown
 * name by itself, in lower case.
 */
const FAILURE_WINDOW = sql`interval '15 minutes'`;

async function recentFailures(db: Db, ip: string, loginKey: string): Promise<number> {
  const [row] = await db
    .select({ failures: loginFailures.failures })
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.ip, ip),
        eq(loginFailures.loginKey, loginKey),
        sql`${loginFailures.lastFailedAt} > now() - ${FAILURE_WINDOW}`,
      ),
    );
  return row?.failures ?? 0;
}

async function recordFailure(db: Db, ip: string, loginKey: string): Promise<void> {
  await db
    .insert(loginFailures)
    .values({ ip, loginKey, failures: 1 })
    .onConflictDoUpdate({
      target: [loginFailures.ip, loginFailures.loginKey],
      set: {
        failures: sql`case when ${loginFailures.lastFailedAt} > now() - ${FAILURE_WINDOW} then ${loginFailures.failures} + 1 else 1 end`,
        lastFailedAt: sql`now()`,
      },
    });
  // Expired counts go as failures come in: the table holds at most 15 minutes of them.
  await db.delete(loginFailures).where(sql`${loginFailures.lastFailedAt} < now() - ${FAILURE_WINDOW}`);
}

export async function login(
  db: Db,
  store: SessionStore,
  input: LoginInput,
  meta: { userAgent?: string; ip?: string },
): Promise<{ user: UserRow } & ({ token: string } | { challenge: string })> {
  const user = await findByLogin(db, input.username);
  const ip = meta.ip ?? '';
  const loginKey = user ? `user:${user.id}` : `name:${input.username.toLowerCase()}`;
  const failures = await recentFailures(db, ip, loginKey);
  const delay = loginDelayMs(failures);
  if (delay) await sleep(delay);

  const passwordOk = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await burnPasswordCheck(input.password);
  if (!user || !passwordOk) {
    await recordFailure(db, ip, loginKey);
    throw new AppError('UNAUTHENTICATED', msg.auth.loginFailed);
  }
  if (user.accountType === 'demo' && (!user.demoExpiresAt || user.demoExpiresAt.getTime() <= Date.now())) {
    throw new AppError('DEMO_EXPIRED', msg.auth.demoExpired);
  }
  // A team member the account has deactivated: the right password, and still no session.
  if (user.accountId && !user.isActive) throw new AppError('ACCOUNT_INACTIVE', teamMsg.memberInactive);
  if (failures) {
    await db.delete(loginFailures).where(and(eq(loginFailures.ip, ip), eq(loginFailures.loginKey, loginKey)));
  }
  // With two-factor sign-in on, the right password opens only the second step (two-factor.service.ts).
  if (user.twoFactorAt) return { user, challenge: await openLoginChallenge(db, user.id) };
  const token = await store.create(user.id, meta);
  return { user, token };
}

/**
 * What a sign-up did. A taken e-mail is not refused: the sign-up answers exactly as for a new
 * account, and the address's owner (when the row is still there) is told by e-mail instead.
 */
export type SignupOutcome<T> = ({ created: UserRow } | { emailOwner: UserRow | undefined }) & T;

const usernameTaken = () => new AppError('CONFLICT', msg.auth.usernameTaken, { username: msg.auth.usernameTaken });

async function usernameExists(db: Db, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return rows.length > 0;
}

/** The account an e-mail belongs to (demo accounts may repeat an address and own none). */
async function emailOwner(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) and ${users.accountType} <> 'demo'`)
    .limit(1);
  return row;
}

/** Every administrator hears of an account awaiting approval (the bell, linking to Usuários). */
async function notifyPendingAccount(db: Db, log: ErrorLog, row: UserRow): Promise<void> {
  await notifyAdmins(db, log, {
    kind: 'account_pending',
    title: notificationMsg.accountPending.title,
    body: notificationMsg.accountPending.body(row.name, row.email),
    link: notificationLinks.adminPending,
  });
}

export async function register(db: Db, input: RegisterInput, log: ErrorLog): Promise<SignupOutcome<object>> {
  const passwordHash = await hashPassword(input.password);
  // The username is checked on its own, before the e-mail has any say: a taken username is refused
  // whether or not the address has an account, so the answer never tells which addresses do.
  if (await usernameExists(db, input.username)) throw usernameTaken();
  let row: UserRow;
  try {
    [row] = await db
      .insert(users)
      .values({
        name: input.name,
        email: input.email,
        username: input.username,
        whatsappNumber: input.whatsappNumber,
        passwordHash,
        accountType: 'pending',
        planType: 'basic',
        isActive: false,
      })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err, 'users_username_lower_idx')) throw usernameTaken();
    if (isUniqueViolation(err, 'users_email_lower_idx')) return { emailOwner: await emailOwner(db, input.email) };
    throw err;
  }
  await notifyPendingAccount(db, log, row);
  return { created: row };
}

function generatedUsername(prefix: string): string {
  const base = prefix
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase()
    .slice(0, 20);
  return `${base || 'cliente'}${randomInt(100_000, 1_000_000)}`;
}

/**
 * Inserts an account with a generated username, retrying when the random suffix is taken. An
 * address that already has an account creates nothing and answers credentials made the same way,
 * which open nothing (the owner is told by e-mail; see SignupOutcome).
 */
async function insertGenerated(
  db: Db,
  prefix: string,
  values: Omit<typeof users.$inferInsert, 'username' | 'passwordHash'>,
): Promise<SignupOutcome<{ credentials: Credentials }>> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  for (let attempt = 0; ; attempt++) {
    const username = generatedUsername(prefix);
    try {
      const [row] = await db
        .insert(users)
        .values({ ...values, username, passwordHash })
        .returning();
      return { created: row, credentials: { username, password } };
    } catch (err) {
      if (isUniqueViolation(err, 'users_username_lower_idx') && attempt < 5) continue;
      if (isUniqueViolation(err, 'users_email_lower_idx')) {
        return { emailOwner: await emailOwner(db, values.email), credentials: { username, password } };
      }
      throw err;
    }
  }
}

export async function demoSignup(db: Db, input: DemoSignupInput): Promise<{ row: UserRow; credentials: Credentials }> {
  return db.transaction(async (tx) => {
    const created = await insertGenerated(tx as unknown as Db, 'demo', {
      name: input.name,
      email: input.email,
      whatsappNumber: input.whatsappNumber,
      accountType: 'demo',
      planType: 'demo',
      isActive: true,
      demoExpiresAt: new Date(Date.now() + DEMO_DURATION_MS),
    });
    // Demo accounts may repeat an e-mail (the unique index leaves them out): always created.
    if (!('created' in created)) throw new Error('a demo account was refused for its e-mail');
    await seedDemoWorkspace(tx as unknown as Db, created.created.id);
    return { row: created.created, credentials: created.credentials };
  });
}

export async function landingSignup(
  db: Db,
  input: LandingSignupInput,
  log: ErrorLog,
): Promise<SignupOutcome<{ credentials: Credentials }>> {
  const outcome = await insertGenerated(db, input.email.split('@')[0], {
    name: input.name,
    email: input.email,
    whatsappNumber: input.whatsappNumber,
    accountType: 'pending',
    planType: 'basic',
    isActive: false,
  });
  if ('created' in outcome) await notifyPendingAccount(db, log, outcome.created);
  return outcome;
}

/**
 * Makes sure the configured administrator exists, with the configured password when one is given.
 * Answers the password it generated for a new administrator when none was configured (else null):
 * the caller shows it to the person starting the server (`adminPasswordNotice`); no log line carries it.
 */
export async function ensureAdmin(
  db: Db,
  opts: { username: string; password?: string; requireTwoFactor?: boolean },
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<string | null> {
  // ADMIN_REQUIRE_TWO_FACTOR holds every administrator, as an account's own setting holds its team.
  await db
    .update(users)
    .set({ requireTwoFactor: opts.requireTwoFactor ?? false })
    .where(eq(users.accountType, 'admin'));
  const [existing] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${opts.username})`)
    .limit(1);
  const adminFields = {
    accountType: 'admin',
    planType: 'admin',
    isActive: true,
    requireTwoFactor: opts.requireTwoFactor ?? false,
  } as const;
  if (existing) {
    const patch: Partial<typeof users.$inferInsert> = { ...adminFields };
    const newPassword = opts.password && !(await verifyPassword(existing.passwordHash, opts.password));
    if (newPassword) patch.passwordHash = await hashPassword(opts.password as string);
    await db.update(users).set(patch).where(eq(users.id, existing.id));
    // A new ADMIN_PASSWORD is a password change: sessions opened with the old one end.
    if (newPassword) await db.delete(sessions).where(ofAccount(sessions, existing.id));
    return null;
  }
  const password = opts.password ?? generatePassword();
  await db.insert(users).values({
    name: 'Administrador',
    email: `${opts.username.toLowerCase()}@admin.local`,
    username: opts.username,
    passwordHash: await hashPassword(password),
    ...adminFields,
  });
  if (opts.password) {
    log.info({ username: opts.username }, 'administrator account created');
    return null;
  }
  log.warn(
    { username: opts.username },
    'administrator account created with a generated password, printed once in a framed block on stderr; set ADMIN_PASSWORD to choose one',
  );
  return password;
}

/**
 * The generated administrator password as a person starting the server should see it: a plain block
 * of text, framed, printed apart from the JSON log lines (server/main.ts writes it to stderr).
 */
export function adminPasswordNotice(opts: { username: string; password: string; url: string }): string {
  const lines = [
    'Administrator account created (first start, ADMIN_PASSWORD is not set)',
    '',
    `  Sign in at: ${opts.url}/login`,
    `  Username:   ${opts.username}`,
    `  Password:   ${opts.password}`,
    '',
    'This password is shown only this once. Keep it, or set ADMIN_PASSWORD',
    'and restart to choose your own.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return ['', rule, ...lines.map((l) => `| ${l.padEnd(width)} |`), rule, ''].join('\n');
}
