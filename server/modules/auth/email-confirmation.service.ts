import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { EMAIL_CONFIRMATION_HOURS, emailConfirmationMsg } from '../../../contract/email-confirmation';
import type { Db } from '../../db/client';
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
