import { asc, eq, sql } from 'drizzle-orm';
import {
  QUICK_REPLY_LIMIT,
  type QuickReply,
  type QuickReplyInput,
  quickRepliesMsg,
} from '../../../contract/quick-replies';
import { lockAccount } from '../../db/account-lock';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { quickReplies } from '../../db/schema';
import { AppError } from '../../errors';

type Row = typeof quickReplies.$inferSelect;

const toQuickReply = (r: Row): QuickReply => ({
  id: r.id,
  shortcut: r.shortcut,
  text: r.text,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const likePattern = (term: string) => term.replace(/[\\%_]/g, (m) => `\\${m}`);

/** The account's quick replies by shortcut; `search` matches the start of a shortcut or any part of a text. */
export async function listQuickReplies(db: Db, userId: string, search?: string): Promise<QuickReply[]> {
  const term = search?.replace(/^\//, '').trim();
  const matching = term
    ? sql`(${quickReplies.shortcut} like ${`${likePattern(term.toLowerCase())}%`} or ${quickReplies.text} ilike ${`%${likePattern(term)}%`})`
    : undefined;
  const rows = await db
    .select()
    .from(quickReplies)
    .where(ofAccount(quickReplies, userId, matching))
    .orderBy(asc(quickReplies.shortcut))
    .limit(QUICK_REPLY_LIMIT);
  return rows.map(toQuickReply);
}

const shortcutTaken = () =>
  new AppError('CONFLICT', quickRepliesMsg.shortcutTaken, { shortcut: quickRepliesMsg.shortcutTaken });

/** A new quick reply; counted and inserted under the account's lock, so two at once count each other. */
export async function createQuickReply(db: Db, userId: string, input: QuickReplyInput): Promise<QuickReply> {
  try {
    return await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await lockAccount(t, userId, 'quickReplies');
      const [count] = await t
        .select({ n: sql<number>`count(*)::int` })
        .from(quickReplies)
        .where(ofAccount(quickReplies, userId));
      if (Number(count.n) >= QUICK_REPLY_LIMIT) throw new AppError('CONFLICT', quickRepliesMsg.limitReached);
      const [row] = await t
        .insert(quickReplies)
        .values({ userId, ...input })
        .returning();
      return toQuickReply(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'quick_replies_shortcut_unique')) throw shortcutTaken();
    throw err;
  }
}

export async function updateQuickReply(
  db: Db,
  userId: string,
  id: string,
  input: QuickReplyInput,
): Promise<QuickReply> {
  try {
    const [row] = await db
      .update(quickReplies)
      .set({ ...input, updatedAt: new Date() })
      .where(ofAccount(quickReplies, userId, eq(quickReplies.id, id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', quickRepliesMsg.notFound);
    return toQuickReply(row);
  } catch (err) {
    if (isUniqueViolation(err, 'quick_replies_shortcut_unique')) throw shortcutTaken();
    throw err;
  }
}

export async function deleteQuickReply(db: Db, userId: string, id: string): Promise<void> {
  const gone = await db
    .delete(quickReplies)
    .where(ofAccount(quickReplies, userId, eq(quickReplies.id, id)))
    .returning({ id: quickReplies.id });
  if (!gone.length) throw new AppError('NOT_FOUND', quickRepliesMsg.notFound);
}
