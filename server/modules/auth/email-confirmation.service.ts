import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import {
  EMAIL_CONFIRMATION_HOURS,
  EMAIL_CONFIRMATION_PER_HOUR,
  emailConfirmationMsg,
} from '../../../contract/email-confirmation';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { emailConfirmationTokens, type UserRow, users } from '../../db/schema';
import { AppError } from '../../errors';
import { hashToken } from '../../sessions/session-store';

/**
 * 'Confirme seu email'. As with password resets, the link carries 32 random bytes and the database
 * keeps only their SHA-256. A link works once, for EMAIL_CONFIRMATION_HOURS; rows of expired links go
 * as new accounts come in.
 */
export async function createEmailConfirmation(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(emailConfirmationTokens).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: sql`now() + ${`${EMAIL_CONFIRMATION_HOURS} hours`}::interval`,
  });
  await db.delete(emailConfirmationTokens).where(lt(emailConfirmationTokens.expiresAt, sql`now()`));
  return token;
}

/**
 * A new confirmation link for a signed-in account that has not confirmed its address, or how many
 * seconds until it may have one: at most EMAIL_CONFIRMATION_PER_HOUR links an hour (the
 * registration's counts). The earlier links keep working. The account's row is locked so two
 * requests at once count each other.
 */
export async function resendEmailConfirmation(
  db: Db,
  userId: string,
): Promise<{ token: string } | { retryAfterSeconds: number }> {
  return db.transaction(async (tx) => {
    const [user] = rowsOf<{ confirmed: boolean }>(
      await tx.execute(
        sql`select email_confirmed_at is not null as confirmed from users where id = ${userId} for update`,
      ),
    );
    if (!user) throw new AppError('UNAUTHENTICATED', emailConfirmationMsg.invalidLink);
    if (user.confirmed) throw new AppError('CONFLICT', emailConfirmationMsg.alreadyConfirmed);
    const [recent] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        retryAfter: sql<number>`ceil(extract(epoch from (min(${emailConfirmationTokens.createdAt}) + interval '1 hour' - now())))::int`,
      })
      .from(emailConfirmationTokens)
      .where(
        ofAccount(
          emailConfirmationTokens,
          userId,
          sql`${emailConfirmationTokens.createdAt} > now() - interval '1 hour'`,
        ),
      );
    if (recent.count >= EMAIL_CONFIRMATION_PER_HOUR) return { retryAfterSeconds: Math.max(1, recent.retryAfter) };
    return { token: await createEmailConfirmation(tx as unknown as Db, userId) };
  });
}

/**
 * Marks the link's account as having confirmed its address and spends the link, in one statement
 * each way round: two requests with one link cannot both succeed. An expired, used or unknown link
 * is refused with one message.
 */
export async function confirmEmail(db: Db, token: string): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .delete(emailConfirmationTokens)
      .where(
        and(eq(emailConfirmationTokens.tokenHash, hashToken(token)), gt(emailConfirmationTokens.expiresAt, sql`now()`)),
      )
      .returning({ userId: emailConfirmationTokens.userId });
    if (!spent) throw new AppError('VALIDATION', emailConfirmationMsg.invalidLink);
    const [user] = await tx
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())` })
      .where(eq(users.id, spent.userId))
      .returning();
    if (!user) throw new AppError('VALIDATION', emailConfirmationMsg.invalidLink);
    return user;
  });
}
