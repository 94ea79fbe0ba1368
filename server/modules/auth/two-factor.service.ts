import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { teamMsg } from '../../../contract/team';
import {
  LOGIN_CHALLENGE_ATTEMPTS,
  LOGIN_CHALLENGE_MINUTES,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  twoFactorMsg,
} from '../../../contract/two-factor';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { loginChallenges, loginFailures, twoFactorSecrets, type UserRow, users } from '../../db/schema';
import { AppError } from '../../errors';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { verifyPassword } from './password';

/** The issuer an authenticator app shows beside the code. */
const ISSUER = 'Disparo';
/** A login's wrong codes across its challenges, in 15 minutes, before codes are refused for a while. */
const MAX_CODE_FAILURES = 10;
const FAILURE_WINDOW = sql`interval '15 minutes'`;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The time step a code of `delta` steps from now belongs to. */
const stepAt = (now: number, delta: number) => Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;

/** Recovery codes: 8 characters of an alphabet without look-alikes, shown as `XXXX-XXXX`. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
/** What is stored of a recovery code: the SHA-256 of its characters without the dash. */
const recoveryHash = (code: string) => sha256(code.replace(/[\s-]/g, '').toUpperCase());

async function secretRow(db: Db, userId: string) {
  const [row] = await db.select().from(twoFactorSecrets).where(ofAccount(twoFactorSecrets, userId)).limit(1);
  return row;
}

/**
 * Starts (or starts again) turning two-factor sign-in on: a new secret, kept sealed and
 * unconfirmed until `enableTwoFactor` gets a good code from it.
 */
export async function startTwoFactorSetup(
  db: Db,
  key: Buffer,
  login: UserRow,
): Promise<{ secret: string; otpauthUrl: string }> {
  const existing = await secretRow(db, login.id);
  if (existing?.confirmedAt) throw new AppError('CONFLICT', twoFactorMsg.alreadyEnabled);
  const secret = new Secret({ size: 20 }).base32;
  const sealed = encryptSecret(key, secret);
  await db
    .insert(twoFactorSecrets)
    .values({ userId: login.id, secret: sealed })
    .onConflictDoUpdate({
      target: twoFactorSecrets.userId,
      set: { secret: sealed, lastStep: 0, recoveryCodes: [], createdAt: new Date() },
      // Never over a confirmed secret (a setup racing an enable).
      setWhere: isNull(twoFactorSecrets.confirmedAt),
    });
  return { secret, otpauthUrl: totpOf(secret, login.email || login.username).toString() };
}

/** The step of a good TOTP code of `secret`, or null. */
function matchingStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : stepAt(now, delta);
}

/** Confirms the setup with a code of the new secret: two-factor sign-in is on, and the recovery codes are made. */
export async function enableTwoFactor(
  db: Db,
  key: Buffer,
  login: UserRow,
  code: string,
  now = Date.now(),
): Promise<string[]> {
  const row = await secretRow(db, login.id);
  if (row?.confirmedAt) throw new AppError('CONFLICT', twoFactorMsg.alreadyEnabled);
  if (!row) throw new AppError('VALIDATION', twoFactorMsg.noSetup, { code: twoFactorMsg.noSetup });
  const step = matchingStep(decryptSecret(key, row.secret), code, now);
  if (step === null) throw new AppError('VALIDATION', twoFactorMsg.invalidCode, { code: twoFactorMsg.invalidCode });
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const confirmed = await db.transaction(async (tx) => {
    const done = await tx
      .update(twoFactorSecrets)
      .set({ confirmedAt: new Date(now), lastStep: step, recoveryCodes: codes.map(recoveryHash) })
      .where(ofAccount(twoFactorSecrets, login.id, isNull(twoFactorSecrets.confirmedAt)))
      .returning({ userId: twoFactorSecrets.userId });
    if (done.length)
      await tx
        .update(users)
        .set({ twoFactorAt: new Date(now) })
        .where(eq(users.id, login.id));
    return done.length > 0;
  });
  if (!confirmed) throw new AppError('CONFLICT', twoFactorMsg.alreadyEnabled);
  return codes;
}

/**
 * Whether `code` is a good second factor of the login: a TOTP code of a step after the last one
 * taken, or one of its unused recovery codes (which is spent). Each is taken in one statement, so
 * two requests with the same code cannot both pass.
 */
export async function spendSecondFactor(db: Db, key: Buffer, userId: string, code: string, now = Date.now()) {
  const row = await secretRow(db, userId);
  if (!row?.confirmedAt) return false;
  const step = matchingStep(decryptSecret(key, row.secret), code, now);
  if (step !== null) {
    const taken = await db
      .update(twoFactorSecrets)
      .set({ lastStep: step })
      .where(
        ofAccount(
          twoFactorSecrets,
          userId,
          isNotNull(twoFactorSecrets.confirmedAt),
          lt(twoFactorSecrets.lastStep, step),
        ),
      )
      .returning({ userId: twoFactorSecrets.userId });
    return taken.length > 0;
  }
  const hash = recoveryHash(code);
  const spent = await db
    .update(twoFactorSecrets)
    .set({ recoveryCodes: sql`array_remove(${twoFactorSecrets.recoveryCodes}, ${hash})` })
    .where(ofAccount(twoFactorSecrets, userId, sql`${hash} = any(${twoFactorSecrets.recoveryCodes})`))
    .returning({ userId: twoFactorSecrets.userId });
  return spent.length > 0;
}

/** Turns two-factor sign-in off, with the login's password and a good code; refused where the account requires it. */
export async function disableTwoFactor(
  db: Db,
  key: Buffer,
  login: UserRow,
  account: UserRow,
  input: { password: string; code: string },
): Promise<void> {
  if (!login.twoFactorAt) throw new AppError('CONFLICT', twoFactorMsg.notEnabled);
  if (account.requireTwoFactor) throw new AppError('CONFLICT', twoFactorMsg.requiredByAccount);
  if (!(await verifyPassword(login.passwordHash, input.password))) {
    throw new AppError('VALIDATION', twoFactorMsg.wrongPassword, { password: twoFactorMsg.wrongPassword });
  }
  if (!(await spendSecondFactor(db, key, login.id, input.code))) {
    throw new AppError('VALIDATION', twoFactorMsg.invalidCode, { code: twoFactorMsg.invalidCode });
  }
  await removeTwoFactor(db, login.id);
}

/**
 * Takes a login's second factor away, secret and recovery codes with it: the login signs in with
 * its password alone (or is sent to set a new one up, where the account requires it). True when
 * there was one to take.
 */
export async function removeTwoFactor(db: Db, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.delete(twoFactorSecrets).where(ofAccount(twoFactorSecrets, userId));
    const cleared = await tx
      .update(users)
      .set({ twoFactorAt: null })
      .where(and(eq(users.id, userId), isNotNull(users.twoFactorAt)))
      .returning({ id: users.id });
    return cleared.length > 0;
  });
}

/** The second step of a sign-in: a random token for the browser's cookie; only its hash is kept. */
export async function openLoginChallenge(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, new Date()));
  await db.insert(loginChallenges).values({
    tokenHash: sha256(token),
    userId,
    expiresAt: new Date(Date.now() + LOGIN_CHALLENGE_MINUTES * 60_000),
  });
  return token;
}

/** A login's wrong codes in the window; `add` counts one more (kept beside the password failures, keyed `2fa:<id>`). */
async function codeFailures(db: Db, userId: string, add: boolean): Promise<number> {
  const loginKey = `2fa:${userId}`;
  const recent = sql`${loginFailures.lastFailedAt} > now() - ${FAILURE_WINDOW}`;
  if (add) {
    const [row] = await db
      .insert(loginFailures)
      .values({ ip: '', loginKey, failures: 1 })
      .onConflictDoUpdate({
        target: [loginFailures.ip, loginFailures.loginKey],
        set: {
          failures: sql`case when ${recent} then ${loginFailures.failures} + 1 else 1 end`,
          lastFailedAt: sql`now()`,
        },
      })
      .returning({ failures: loginFailures.failures });
    return row?.failures ?? 1;
  }
  const [row] = await db
    .select({ failures: loginFailures.failures })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ''), eq(loginFailures.loginKey, loginKey), recent));
  return row?.failures ?? 0;
}

/**
 * Completes a sign-in halfway: the challenge's login, when `code` is a good second factor. A wrong
 * code counts against the challenge (it dies at the fifth) and against the login (ten in 15
 * minutes refuse every code for a while), so a code cannot be guessed in the time it lives.
 */
export async function completeLoginChallenge(db: Db, key: Buffer, token: string, code: string): Promise<UserRow> {
  const tokenHash = sha256(token);
  const [challenge] = await db
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.tokenHash, tokenHash), sql`${loginChallenges.expiresAt} > now()`))
    .limit(1);
  if (!challenge) throw new AppError('UNAUTHENTICATED', twoFactorMsg.challengeExpired);
  if ((await codeFailures(db, challenge.userId, false)) >= MAX_CODE_FAILURES) {
    throw new AppError('RATE_LIMITED', twoFactorMsg.tooManyAttempts);
  }
  if (!(await spendSecondFactor(db, key, challenge.userId, code))) {
    await codeFailures(db, challenge.userId, true);
    const [counted] = await db
      .update(loginChallenges)
      .set({ attempts: sql`${loginChallenges.attempts} + 1` })
      .where(eq(loginChallenges.tokenHash, tokenHash))
      .returning({ attempts: loginChallenges.attempts });
    if (!counted || counted.attempts >= LOGIN_CHALLENGE_ATTEMPTS) {
      await db.delete(loginChallenges).where(eq(loginChallenges.tokenHash, tokenHash));
      throw new AppError('UNAUTHENTICATED', twoFactorMsg.challengeExpired);
    }
    throw new AppError('VALIDATION', twoFactorMsg.invalidCode, { code: twoFactorMsg.invalidCode });
  }
  // Spent once: a second request with the same cookie finds nothing.
  const spent = await db
    .delete(loginChallenges)
    .where(eq(loginChallenges.tokenHash, tokenHash))
    .returning({ userId: loginChallenges.userId });
  if (!spent.length) throw new AppError('UNAUTHENTICATED', twoFactorMsg.challengeExpired);
  const [user] = await db.select().from(users).where(eq(users.id, challenge.userId)).limit(1);
  if (!user) throw new AppError('UNAUTHENTICATED', twoFactorMsg.challengeExpired);
  if (user.accountId && !user.isActive) throw new AppError('ACCOUNT_INACTIVE', teamMsg.memberInactive);
  return user;
}
