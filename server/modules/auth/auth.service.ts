import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
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
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { UserRow } from '../../db/schema';
import { sessions, users } from '../../db/schema';
import { AppError } from '../../errors';
import { type ErrorLog, notifyAdmins } from '../../lib/notify';
import { seedDemoWorkspace } from './demo-data';
import { burnPasswordCheck, generatePassword, hashPassword, loginDelayMs, verifyPassword } from './password';
import type { SessionStore } from './sessions.service';

export function toPublicUser(u: UserRow): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    username: u.username,
    whatsappNumber: u.whatsappNumber,
    accountType: u.accountType,
    planType: u.planType,
    isActive: u.isActive,
    createdAt: u.createdAt.toISOString(),
    demoExpiresAt: u.demoExpiresAt ? u.demoExpiresAt.toISOString() : null,
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

export async function login(
  db: Db,
  store: SessionStore,
  input: LoginInput,
  meta: { userAgent?: string; ip?: string },
): Promise<{ user: UserRow; token: string }> {
  const user = await findByLogin(db, input.username);
  if (!user) {
    await burnPasswordCheck(input.password);
    throw new AppError('UNAUTHENTICATED', msg.auth.loginFailed);
  }
  const recentFailures =
    user.lastFailedLoginAt && Date.now() - user.lastFailedLoginAt.getTime() < 15 * 60_000 ? user.failedLogins : 0;
  const delay = loginDelayMs(recentFailures);
  if (delay) await sleep(delay);

  if (!(await verifyPassword(user.passwordHash, input.password))) {
    // Counted in the database, so attempts sent at once each count (none overwrites another).
    await db
      .update(users)
      .set({
        failedLogins: sql`case when ${users.lastFailedLoginAt} > now() - interval '15 minutes' then ${users.failedLogins} + 1 else 1 end`,
        lastFailedLoginAt: sql`now()`,
      })
      .where(eq(users.id, user.id));
    throw new AppError('UNAUTHENTICATED', msg.auth.loginFailed);
  }
  if (user.accountType === 'demo' && (!user.demoExpiresAt || user.demoExpiresAt.getTime() <= Date.now())) {
    throw new AppError('DEMO_EXPIRED', msg.auth.demoExpired);
  }
  if (user.failedLogins) {
    await db.update(users).set({ failedLogins: 0, lastFailedLoginAt: null }).where(eq(users.id, user.id));
  }
  const token = await store.create(user.id, meta);
  return { user, token };
}

function conflictMessage(err: unknown): AppError | undefined {
  if (isUniqueViolation(err, 'users_username_lower_idx')) return new AppError('CONFLICT', msg.auth.usernameTaken);
  if (isUniqueViolation(err, 'users_email_lower_idx')) return new AppError('CONFLICT', msg.auth.emailTaken);
  return undefined;
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

export async function register(db: Db, input: RegisterInput, log: ErrorLog): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
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
    throw conflictMessage(err) ?? err;
  }
  await notifyPendingAccount(db, log, row);
  return row;
}

function generatedUsername(prefix: string): string {
  const base = prefix
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase()
    .slice(0, 20);
  return `${base || 'cliente'}${randomInt(100_000, 1_000_000)}`;
}

/** Inserts an account with a generated username, retrying when the random suffix is taken. */
async function insertGenerated(
  db: Db,
  prefix: string,
  values: Omit<typeof users.$inferInsert, 'username' | 'passwordHash'>,
): Promise<{ row: UserRow; credentials: Credentials }> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  for (let attempt = 0; ; attempt++) {
    const username = generatedUsername(prefix);
    try {
      const [row] = await db
        .insert(users)
        .values({ ...values, username, passwordHash })
        .returning();
      return { row, credentials: { username, password } };
    } catch (err) {
      if (isUniqueViolation(err, 'users_username_lower_idx') && attempt < 5) continue;
      throw conflictMessage(err) ?? err;
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
    await seedDemoWorkspace(tx as unknown as Db, created.row.id);
    return created;
  });
}

export async function landingSignup(
  db: Db,
  input: LandingSignupInput,
  log: ErrorLog,
): Promise<{ row: UserRow; credentials: Credentials }> {
  const created = await insertGenerated(db, input.email.split('@')[0], {
    name: input.name,
    email: input.email,
    whatsappNumber: input.whatsappNumber,
    accountType: 'pending',
    planType: 'basic',
    isActive: false,
  });
  await notifyPendingAccount(db, log, created.row);
  return created;
}

/** Makes sure the configured administrator exists, with the configured password when one is given. */
export async function ensureAdmin(
  db: Db,
  opts: { username: string; password?: string },
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<void> {
  const [existing] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${opts.username})`)
    .limit(1);
  const adminFields = { accountType: 'admin', planType: 'admin', isActive: true } as const;
  if (existing) {
    const patch: Partial<typeof users.$inferInsert> = { ...adminFields };
    const newPassword = opts.password && !(await verifyPassword(existing.passwordHash, opts.password));
    if (newPassword) patch.passwordHash = await hashPassword(opts.password as string);
    await db.update(users).set(patch).where(eq(users.id, existing.id));
    // A new ADMIN_PASSWORD is a password change: sessions opened with the old one end.
    if (newPassword) await db.delete(sessions).where(eq(sessions.userId, existing.id));
    return;
  }
  const password = opts.password ?? generatePassword();
  await db.insert(users).values({
    name: 'Administrador',
    email: `${opts.username.toLowerCase()}@admin.local`,
    username: opts.username,
    passwordHash: await hashPassword(password),
    ...adminFields,
  });
  if (opts.password) log.info({ username: opts.username }, 'administrator account created');
  else
    log.warn(
      `Administrator "${opts.username}" created with the generated password: ${password} — set ADMIN_PASSWORD to choose one.`,
    );
}
