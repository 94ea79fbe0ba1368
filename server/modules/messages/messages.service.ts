import { desc, eq } from 'drizzle-orm';
import { type BackupFile, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import { mediaMsg } from '../../../contract/media';
import {
  isHttpUrl,
  SAVED_MESSAGE_TEXT_MAX,
  type SavedMessage,
  type SavedMessageFields,
  type SavedMessageMedia,
  savedMessageImageRef,
  savedMessagesMsg,
} from '../../../contract/saved-messages';
import { namedUploadId, UPLOAD_REF_PREFIX, uploadIdOf, uploadUrl } from '../../../contract/uploads';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { savedMessages } from '../../db/schema';
import { AppError } from '../../errors';
import { multiset, takeFrom } from '../../lib/multiset';
import { linkProblem, type OutboundPolicy } from '../../lib/outbound-fetch';
import { sanitizeMessageHtml, savedMessageText } from '../../lib/whatsapp-format';
import { readyAccountFile, readyAccountFiles } from '../../media/account-files';
import { findUpload, releaseFiles } from '../uploads';

type SavedMessageRow = typeof savedMessages.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account's files saved messages send, by id (ready ones only: one gone or another account's is absent). */
type Files = Map<string, SavedMessageMedia>;

/** The file id a saved message's `mediaUrl` names, or null for a link or none. */
function fileIdOf(mediaUrl: string | null): string | null {
  const id = mediaUrl ? uploadIdOf(mediaUrl) : null;
  return id && UUID.test(id) ? id.toLowerCase() : null;
}

async function filesOf(db: Db, userId: string, rows: SavedMessageRow[]): Promise<Files> {
  const found = await readyAccountFiles(
    db,
    userId,
    rows.flatMap((r) => fileIdOf(r.mediaUrl) ?? []),
  );
  const out: Files = new Map();
  for (const [id, { kind, mimeType, fileName, size }] of found) out.set(id, { kind, mimeType, fileName, size });
  return out;
}

export function toSavedMessage(r: SavedMessageRow, files: Files = new Map()): SavedMessage {
  const fileId = fileIdOf(r.mediaUrl);
  return {
    id: r.id,
    title: r.title,
    type: r.type,
    enableMessage: r.enableMessage,
    hasImage: r.hasImage,
    imageUrl: r.imageUrl,
    imageFile: r.imageFile,
    uploadId: r.uploadId,
    uploadUrl: r.uploadId ? uploadUrl(r.uploadId) : null,
    content: r.content,
    contentType: r.contentType,
    preview: savedMessageText(r),
    mediaUrl: r.mediaUrl,
    media: (fileId && files.get(fileId)) || null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION', message, { [field]: message });
}

/** What saving a message's file needs: which links may be kept, and how a file's link is fetched. */
export interface SavedMessageDeps {
  outbound: OutboundPolicy;
  /** Stores an https link's file (any kind) as one of the account's files (deps.media.fromLink). */
  fromLink?: (userId: string, link: string) => Promise<{ id: string }>;
}

/** A link whose name says it is an image: kept as a link, as an image link given the spec's way is. */
const IMAGE_LINK = /\.(jpe?g|png|webp|gif)$/i;

/**
 * A message's file as it is kept: `upload:<id>` of one of the account's ready files (another
 * account's id reads as a missing one), an image link as it is, or an https link to any other file,
 * fetched once into the account's files and kept as that file.
 */
async function resolveMediaUrl(db: Db, userId: string, value: string, deps: SavedMessageDeps): Promise<string> {
  const id = namedUploadId(value);
  if (id !== null) {
    const file = UUID.test(id) ? await readyAccountFile(db, userId, id.toLowerCase()) : null;
    if (!file) throw invalid('mediaUrl', savedMessagesMsg.fileNotFound);
    return `${UPLOAD_REF_PREFIX}${id.toLowerCase()}`;
  }
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  const image = url !== null && IMAGE_LINK.test(url.pathname);
  if (!url || !(url.protocol === 'https:' || (image && url.protocol === 'http:')))
    throw invalid('mediaUrl', savedMessagesMsg.mediaUrlInvalid);
  if (linkProblem(url.href, deps.outbound))
    throw invalid('mediaUrl', image ? mediaMsg.imageUrlNotPublic : mediaMsg.fileUrlNotPublic);
  if (image) return url.href;
  if (!deps.fromLink) throw invalid('mediaUrl', savedMessagesMsg.mediaUrlInvalid);
  const stored = await deps.fromLink(userId, url.href);
  return `${UPLOAD_REF_PREFIX}${stored.id.toLowerCase()}`;
}

/**
 * What a create or an edit stores: HTML sanitised (and refused when nothing of it is left or its
 * text is too long for WhatsApp), the image as a link or as one of the account's uploads, and no
 * image fields at all when the message has no image. The file (`mediaUrl`): the one asked for, or
 * (absent) the one the message has, unless an image given the spec's way replaces it.
 */
async function rowFields(
  db: Db,
  userId: string,
  input: SavedMessageFields,
  deps: SavedMessageDeps,
  current: SavedMessageRow | null,
) {
  const { outbound } = deps;
  const content = input.contentType === 'html' ? sanitizeMessageHtml(input.content) : input.content;
  const text = savedMessageText({ content, contentType: input.contentType });
  if (!text.trim()) throw invalid('content', savedMessagesMsg.contentRequired);
  if (text.length > SAVED_MESSAGE_TEXT_MAX) throw invalid('content', savedMessagesMsg.contentTooLong);

  let imageUrl = '';
  let imageFile = '';
  let uploadId: string | null = null;
  if (input.hasImage) {
    if (input.imageUrl && !isHttpUrl(input.imageUrl)) throw invalid('imageUrl', savedMessagesMsg.imageUrlInvalid);
    if (input.imageUrl && linkProblem(input.imageUrl, outbound)) throw invalid('imageUrl', mediaMsg.imageUrlNotPublic);
    imageUrl = input.imageUrl;
    imageFile = input.imageFile;
    if (input.uploadId) {
      const upload = await findUpload(db, userId, input.uploadId);
      if (!upload) throw invalid('uploadId', savedMessagesMsg.uploadNotFound);
      uploadId = upload.id;
      imageFile = upload.fileName;
    }
  }
  if (input.hasImage && input.mediaUrl) throw invalid('mediaUrl', savedMessagesMsg.imageOrMedia);
  let mediaUrl: string | null = null;
  if (input.mediaUrl) mediaUrl = await resolveMediaUrl(db, userId, input.mediaUrl, deps);
  else if (input.mediaUrl === undefined && !input.hasImage) mediaUrl = current?.mediaUrl ?? null;
  return {
    title: input.title,
    type: input.type,
    enableMessage: input.enableMessage,
    hasImage: input.hasImage,
    imageUrl,
    imageFile,
    uploadId,
    mediaUrl,
    content,
    contentType: input.contentType,
  };
}

export async function listSavedMessages(db: Db, userId: string): Promise<SavedMessage[]> {
  const rows = await db
    .select()
    .from(savedMessages)
    .where(ofAccount(savedMessages, userId))
    .orderBy(desc(savedMessages.createdAt), desc(savedMessages.id));
  const files = await filesOf(db, userId, rows);
  return rows.map((r) => toSavedMessage(r, files));
}

async function findRow(db: Db, userId: string, id: string): Promise<SavedMessageRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select()
    .from(savedMessages)
    .where(ofAccount(savedMessages, userId, eq(savedMessages.id, id)));
  return row ?? null;
}

export async function getSavedMessage(db: Db, userId: string, id: string): Promise<SavedMessage> {
  const row = await findRow(db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', savedMessagesMsg.notFound);
  return toSavedMessage(row, await filesOf(db, userId, [row]));
}

const NO_DEPS: SavedMessageDeps = { outbound: { allowPrivate: false } };

export async function createSavedMessage(
  db: Db,
  userId: string,
  input: SavedMessageFields,
  deps: SavedMessageDeps = NO_DEPS,
): Promise<SavedMessage> {
  const [row] = await db
    .insert(savedMessages)
    .values({ ...(await rowFields(db, userId, input, deps, null)), userId })
    .returning();
  return toSavedMessage(row, await filesOf(db, userId, [row]));
}

/** Replaces a saved message; the files it no longer sends are freed when nothing else uses them. */
export async function updateSavedMessage(
  db: Db,
  userId: string,
  id: string,
  input: SavedMessageFields,
  deps: SavedMessageDeps = NO_DEPS,
): Promise<SavedMessage> {
  const current = await findRow(db, userId, id);
  if (!current) throw new AppError('NOT_FOUND', savedMessagesMsg.notFound);
  const fields = await rowFields(db, userId, input, deps, current);
  const [row] = await db
    .update(savedMessages)
    .set({ ...fields, updatedAt: new Date() })
    .where(ofAccount(savedMessages, userId, eq(savedMessages.id, id)))
    .returning();
  if (!row) throw new AppError('NOT_FOUND', savedMessagesMsg.notFound);
  const dropped = [current.uploadId, current.mediaUrl].filter(
    (ref) => ref && ref !== row.uploadId && ref !== row.mediaUrl,
  );
  if (dropped.length) await releaseFiles(db, userId, dropped);
  return toSavedMessage(row, await filesOf(db, userId, [row]));
}

export async function deleteSavedMessage(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(savedMessages)
    .where(ofAccount(savedMessages, userId, eq(savedMessages.id, id)))
    .returning({ uploadId: savedMessages.uploadId, mediaUrl: savedMessages.mediaUrl });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', savedMessagesMsg.notFound);
  await releaseFiles(db, userId, [deleted[0].uploadId, deleted[0].mediaUrl]);
}

/**
 * A saved message as a campaign's content: the text WhatsApp receives, its image (the http(s)
 * link, or `upload:<id>` for an uploaded image) and its file of any kind (`mediaUrl`), or null when
 * the account has no such message.
 */
export async function savedMessageAsContent(
  db: Db,
  userId: string,
  id: string,
): Promise<{ message: string; imageUrl: string | null; mediaUrl: string | null } | null> {
  const row = await findRow(db, userId, id);
  if (!row) return null;
  return { message: savedMessageText(row), imageUrl: savedMessageImageRef(row), mediaUrl: row.mediaUrl };
}

// Restore (modules/backup)

/** Rows written per statement on restore (modules/backup). */
const RESTORE_BATCH = 500;

/**
 * Saved messages by title, content type and content: one the account has is not added again.
 * `restoreImage` answers the account's upload for a message's image, or null when it could not
 * come back (the caller reports why); the message is then restored without it. `restoreFile` does
 * the same for the file its `mediaUrl` names (a link is kept as it is).
 */
export async function restoreSavedMessages(
  t: Db,
  userId: string,
  list: BackupFile['savedMessages'],
  restoreImage: (uploadId: string, title: string) => Promise<{ id: string; fileName: string | null } | null>,
  restoreFile: (uploadId: string, title: string) => Promise<{ id: string } | null> = async () => null,
): Promise<RestoreCounts> {
  const counts = zeroCounts();
  const key = (m: { title: string; contentType: string; content: string }) =>
    JSON.stringify([m.title, m.contentType, m.content]);
  const own = multiset(
    (
      await t
        .select({ title: savedMessages.title, contentType: savedMessages.contentType, content: savedMessages.content })
        .from(savedMessages)
        .where(ofAccount(savedMessages, userId))
    ).map(key),
  );
  const fresh: Array<typeof savedMessages.$inferInsert> = [];
  for (const m of list) {
    if (takeFrom(own, key(m))) {
      counts.unchanged++;
      continue;
    }
    let uploadId: string | null = null;
    let imageFile = m.imageFile;
    if (m.hasImage && m.uploadId) {
      const image = await restoreImage(m.uploadId, m.title);
      if (image) {
        uploadId = image.id;
        imageFile = image.fileName ?? imageFile;
      }
    }
    const hasImage = m.hasImage && (!!uploadId || isHttpUrl(m.imageUrl));
    let mediaUrl: string | null = null;
    const fileId = m.mediaUrl ? uploadIdOf(m.mediaUrl, { uuidOnly: true }) : null;
    if (fileId) {
      const file = await restoreFile(fileId, m.title);
      mediaUrl = file ? `${UPLOAD_REF_PREFIX}${file.id.toLowerCase()}` : null;
    } else if (m.mediaUrl && isHttpUrl(m.mediaUrl)) {
      mediaUrl = m.mediaUrl;
    }
    fresh.push({
      userId,
      title: m.title,
      type: m.type,
      enableMessage: m.enableMessage,
      hasImage,
      imageUrl: hasImage ? m.imageUrl : '',
      imageFile: hasImage ? imageFile : '',
      uploadId: hasImage ? uploadId : null,
      mediaUrl: hasImage ? null : mediaUrl,
      content: m.content,
      contentType: m.contentType,
      ...(m.createdAt && { createdAt: new Date(m.createdAt) }),
      ...(m.updatedAt && { updatedAt: new Date(m.updatedAt) }),
    });
  }
  for (let i = 0; i < fresh.length; i += RESTORE_BATCH)
    await t.insert(savedMessages).values(fresh.slice(i, i + RESTORE_BATCH));
  counts.added += fresh.length;
  return counts;
}
