import { asc, eq, sql } from 'drizzle-orm';
import { type RestoreCounts, zeroCounts } from '../../../contract/backup';
import {
  QUICK_REPLY_LIMIT,
  type QuickReply,
  type QuickReplyInput,
  quickRepliesMsg,
} from '../../../contract/quick-replies';
import { namedUploadId, UPLOAD_REF_PREFIX, uploadUrl } from '../../../contract/uploads';
import { lockAccount } from '../../db/account-lock';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { quickReplies } from '../../db/schema';
import { AppError } from '../../errors';
import { type ListedFile, readyAccountFile, readyAccountFiles } from '../../media/account-files';

type Row = typeof quickReplies.$inferSelect;

const toQuickReply = (r: Row, files: Map<string, ListedFile>): QuickReply => {
  const file = r.mediaUploadId ? files.get(r.mediaUploadId) : undefined;
  return {
    id: r.id,
    shortcut: r.shortcut,
    text: r.text,
    mediaUrl: file ? `${UPLOAD_REF_PREFIX}${file.id}` : null,
    media: file
      ? {
          id: file.id,
          url: uploadUrl(file.id),
          fileName: file.fileName,
          mimeType: file.mimeType,
          size: file.size,
          kind: file.kind,
          ...(file.voice ? { voice: true } : {}),
          ...(file.durationSeconds !== null ? { durationSeconds: file.durationSeconds } : {}),
        }
      : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
};

/** The rows as the API answers them, their files read in one statement. */
async function answered(db: Db, userId: string, rows: Row[]): Promise<QuickReply[]> {
  const ids = rows.flatMap((r) => (r.mediaUploadId ? [r.mediaUploadId] : []));
  const files = await readyAccountFiles(db, userId, ids);
  return rows.map((r) => toQuickReply(r, files));
}

/**
 * The file an input names, as the row keeps it: its id when it is one of the account's ready files
 * (another account's is as unknown as a made-up one), null to take it away, undefined to keep it.
 */
async function mediaOf(
  db: Db,
  userId: string,
  mediaUrl: string | null | undefined,
): Promise<string | null | undefined> {
  if (mediaUrl === undefined) return undefined;
  if (mediaUrl === null || mediaUrl === '') return null;
  const id = (namedUploadId(mediaUrl) ?? '').toLowerCase();
  const file = await readyAccountFile(db, userId, id);
  if (!file) throw new AppError('VALIDATION', quickRepliesMsg.mediaInvalid, { mediaUrl: quickRepliesMsg.mediaInvalid });
  return id;
}

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
  return answered(db, userId, rows);
}

const shortcutTaken = () =>
  new AppError('CONFLICT', quickRepliesMsg.shortcutTaken, { shortcut: quickRepliesMsg.shortcutTaken });

/** A new quick reply; counted and inserted under the account's lock, so two at once count each other. */
export async function createQuickReply(db: Db, userId: string, input: QuickReplyInput): Promise<QuickReply> {
  const { mediaUrl, ...fields } = input;
  const mediaUploadId = (await mediaOf(db, userId, mediaUrl)) ?? null;
  try {
    const row = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await lockAccount(t, userId, 'quickReplies');
      const [count] = await t
        .select({ n: sql<number>`count(*)::int` })
        .from(quickReplies)
        .where(ofAccount(quickReplies, userId));
      if (Number(count.n) >= QUICK_REPLY_LIMIT) throw new AppError('CONFLICT', quickRepliesMsg.limitReached);
      const [created] = await t
        .insert(quickReplies)
        .values({ userId, ...fields, mediaUploadId })
        .returning();
      return created;
    });
    return (await answered(db, userId, [row]))[0];
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
  const { mediaUrl, ...fields } = input;
  const mediaUploadId = await mediaOf(db, userId, mediaUrl);
  try {
    const [row] = await db
      .update(quickReplies)
      .set({ ...fields, ...(mediaUploadId !== undefined ? { mediaUploadId } : {}), updatedAt: new Date() })
      .where(ofAccount(quickReplies, userId, eq(quickReplies.id, id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', quickRepliesMsg.notFound);
    return (await answered(db, userId, [row]))[0];
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

// Restore (modules/backup)

/**
 * The backup's quick replies by shortcut: one the account has keeps its own; the others are added
 * up to QUICK_REPLY_LIMIT, under the account's quick replies lock. A reply's file comes back through
 * `restoreFile` (the account's upload id, or null once it has said why not: the text comes back alone).
 */
export async function restoreQuickReplies(
  t: Db,
  userId: string,
  list: ReadonlyArray<{ shortcut: string; text: string; mediaUrl?: string | null; createdAt?: string }>,
  restoreFile: (id: string, shortcut: string) => Promise<string | null>,
): Promise<RestoreCounts> {
  const counts = zeroCounts();
  await lockAccount(t, userId, 'quickReplies');
  const existing = await t
    .select({ shortcut: quickReplies.shortcut })
    .from(quickReplies)
    .where(ofAccount(quickReplies, userId));
  const taken = new Set(existing.map((r) => r.shortcut));
  let room = QUICK_REPLY_LIMIT - existing.length;
  for (const r of list) {
    if (taken.has(r.shortcut)) {
      counts.unchanged++;
      continue;
    }
    if (room <= 0) {
      counts.skipped++;
      continue;
    }
    const fileId = r.mediaUrl ? namedUploadId(r.mediaUrl) : null;
    const mediaUploadId = fileId ? await restoreFile(fileId.toLowerCase(), r.shortcut) : null;
    await t.insert(quickReplies).values({
      userId,
      shortcut: r.shortcut,
      text: r.text,
      mediaUploadId,
      ...(r.createdAt ? { createdAt: new Date(r.createdAt), updatedAt: new Date(r.createdAt) } : {}),
    });
    taken.add(r.shortcut);
    room--;
    counts.added++;
  }
  return counts;
}
