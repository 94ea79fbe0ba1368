import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { PASSWORD_RESET_MINUTES, PASSWORD_RESET_PER_HOUR, passwordResetMsg } from '../../../contract/password-reset';
import type { Db } from '../../db/client';
import { loginFailures, passwordResetTokens, type UserRow, users } from '../../db/schema';
import { AppError } from '../../errors';
import { hashToken, type SessionStore } from '../../sessions/session-store';
import { hashPassword } from './password';

/**
 * 'Esqueci minha senha'. A link carries 32 random bytes; the database keeps only their SHA-256, so
 * a copy of it opens no account. A link works once, for PASSWORD_RESET_MINUTES; asking again spends
 * the earlier ones. The route answers the same whether or not an account has the address, before
 * any of this runs (server/modules/auth/password-reset.routes.ts).
 */

/** Rows older than this go as new requests come in: the hour counted for the limit, with room. */
const KEEP = sql`interval '1 day'`;

/**
 * A new link for the account with this e-mail, or null when there is none (demo accounts do not
 * count: their e-mails may repeat) or it was sent PASSWORD_RESET_PER_HOUR links in the last hour.
 */
export async function createPasswordReset(db: Db, email: string): Promise<{ user: UserRow; token: string } | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) and ${users.accountType} <> 'demo'`)
    .limit(1);
  if (!user) return null;
  const token = randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    // The account's row is locked so two requests at once count each other.
    await tx.execute(sql`select 1 from users where id = ${user.id} for update`);
    const [{ recent }] = await tx
      .select({ recent: sql<number>`count(*)::int` })
      .from(passwordResetTokens)
      .where(
        and(eq(passwordResetTokens.userId, user.id), sql`${passwordResetTokens.createdAt} > now() - interval '1 hour'`),
      );
    if (recent >= PASSWORD_RESET_PER_HOUR) return null;
    await tx
      .update(passwordResetTokens)
      .set({ spentAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.spentAt)));
    await tx.insert(passwordResetTokens).values({
      tokenHash: hashToken(token),
      userId: user.id,
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
      .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.spentAt)));
    await tx.delete(loginFailures).where(eq(loginFailures.loginKey, `user:${claimed.userId}`));
    return row;
  });
  // The account was deleted between the two statements: nothing to reset.
  if (!user) throw new AppError('VALIDATION', passwordResetMsg.invalidLink);
  await sessions.revokeUser(user.id);
  return user;
}
