import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import {
  PASSWORD_RESET_MINUTES,
  PASSWORD_RESET_PER_ACCOUNT_HOUR,
  PASSWORD_RESET_PER_HOUR,
  PASSWORD_RESET_PER_REQUESTER_HOUR,
  passwordResetMsg,
} from '../../../contract/password-reset';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { loginFailures, passwordResetTokens, type UserRow, users } from '../../db/schema';
import { AppError } from '../../errors';
import { hashToken, type SessionStore } from '../../sessions/session-store';
import { hashPassword } from './password';

/**
 * 'Esqueci minha senha'. A link carries 32 random bytes; the database keeps only their SHA-256, so
 * a copy of it opens no account. A link works once, for PASSWORD_RESET_MINUTES. Asking again does
 * not spend the links already sent: anyone may ask for anyone's address, and a stranger's request
 * must not kill the link the owner is about to open. Several links may be live at once; using one
 * spends the others. The route answers the same whether or not an account has the address, before
 * any of this runs (server/modules/auth/password-reset.routes.ts).
 */

/** Rows older than this go as new requests come in: the hour counted for the limit, with room. */
const KEEP = sql`interval '1 day'`;
const LAST_HOUR = sql`now() - interval '1 hour'`;

/**
 * A new link for the account with this e-mail, asked for from `requesterIp`, or null when there is
 * no such account (demo accounts do not count: their e-mails may repeat) or a limit is reached:
 * PASSWORD_RESET_PER_HOUR links to this account for this requester, PASSWORD_RESET_PER_ACCOUNT_HOUR
 * for all requesters together, PASSWORD_RESET_PER_REQUESTER_HOUR to all accounts for this requester.
 */
export async function createPasswordReset(
  db: Db,
  email: string,
  requesterIp: string,
): Promise<{ user: UserRow; token: string } | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) and ${users.accountType} <> 'demo'`)
    .limit(1);
  if (!user) return null;
  const token = randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    // The account's row, then the requester, are locked so two requests at once count each other
    // (always in this order: no two requests wait for each other).
    await tx.execute(sql`select 1 from users where id = ${user.id} for update`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`password-reset:${requesterIp}`}))`);
    const [counts] = await tx
      .select({
        account: sql<number>`count(*) filter (where ${passwordResetTokens.userId} = ${user.id})::int`,
        pair: sql<number>`count(*) filter (where ${passwordResetTokens.userId} = ${user.id} and ${passwordResetTokens.requestedIp} = ${requesterIp})::int`,
        requester: sql<number>`count(*) filter (where ${passwordResetTokens.requestedIp} = ${requesterIp})::int`,
      })
      .from(passwordResetTokens)
      .where(
        and(
          sql`${passwordResetTokens.createdAt} > ${LAST_HOUR}`,
          or(ofAccount(passwordResetTokens, user.id), eq(passwordResetTokens.requestedIp, requesterIp)),
        ),
      );
    if (
      counts.pair >= PASSWORD_RESET_PER_HOUR ||
      counts.account >= PASSWORD_RESET_PER_ACCOUNT_HOUR ||
      counts.requester >= PASSWORD_RESET_PER_REQUESTER_HOUR
    ) {
      return null;
    }
    await tx.insert(passwordResetTokens).values({
      tokenHash: hashToken(token),
      userId: user.id,
      requestedIp: requesterIp,
      expiresAt: sql`now() + ${`${PASSWORD_RESET_MINUTES} minutes`}::interval`,
    });
    await tx.delete(passwordResetTokens).where(lt(passwordResetTokens.createdAt, sql`now() - ${KEEP}`));
    return { user, token };
  });
}

/**
 * Sets the password of the link's account and spends the link (and any other of the account's),
 * ends every session of the account and forgets its failed sign-ins. An expired, spent or unknown
 * link is refused with one message. The link is spent first, in one statement, so two requests
 * with it at once cannot both succeed.
 */
export async function resetPassword(
  db: Db,
  sessions: SessionStore,
  input: { token: string; password: string },
): Promise<UserRow> {
  const [claimed] = await db
    .update(passwordResetTokens)
    .set({ spentAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(input.token)),
        isNull(passwordResetTokens.spentAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  if (!claimed) throw new AppError('VALIDATION', passwordResetMsg.invalidLink);

  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date(), failedLogins: 0, lastFailedLoginAt: null })
      .where(eq(users.id, claimed.userId))
      .returning();
    await tx
      .update(passwordResetTokens)
      .set({ spentAt: sql`now()` })
      .where(ofAccount(passwordResetTokens, claimed.userId, isNull(passwordResetTokens.spentAt)));
    await tx.delete(loginFailures).where(eq(loginFailures.loginKey, `user:${claimed.userId}`));
    return row;
  });
  // The account was deleted between the two statements: nothing to reset.
  if (!user) throw new AppError('VALIDATION', passwordResetMsg.invalidLink);
  await sessions.revokeUser(user.id);
  return user;
}
