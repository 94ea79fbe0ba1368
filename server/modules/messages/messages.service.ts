import { desc, eq } from 'drizzle-orm';
import { type BackupFile, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import { mediaMsg } from '../../../contract/media';
import {
  isHttpUrl,
  SAVED_MESSAGE_TEXT_MAX,
  type SavedMessage,
  type SavedMessageFields,
  savedMessageImageRef,
  savedMessagesMsg,
} from '../../../contract/saved-messages';
import { uploadUrl } from '../../../contract/uploads';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { savedMessages } from '../../db/schema';
import { AppError } from '../../errors';
import { multiset, takeFrom } from '../../lib/multiset';
import { linkProblem, type OutboundPolicy } from '../../lib/outbound-fetch';
import { sanitizeMessageHtml, savedMessageText } from '../../lib/whatsapp-format';
import { findUpload, releaseFiles } from '../uploads';

type SavedMessageRow = typeof savedMessages.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toSavedMessage(r: SavedMessageRow): SavedMessage {
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
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION', message, { [field]: message });
}

/**
 * What a create or an edit stores: HTML sanitised (and refused when nothing of it is left or its
 * text is too long for WhatsApp), the image as a link or as one of the account's uploads, and no
 * image fields at all when the message has no image.
 */
async function rowFields(db: Db, userId: string, input: SavedMessageFields, outbound: OutboundPolicy) {
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
  return {
    title: input.title,
    type: input.type,
    enableMessage: input.enableMessage,
    hasImage: input.hasImage,
    imageUrl,
    imageFile,
    uploadId,
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
  return rows.map(toSavedMessage);
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
  return toSavedMessage(row);
}

export async function createSavedMessage(
  db: Db,
  userId: string,
  input: SavedMessageFields,
  outbound: OutboundPolicy = { allowPrivate: false },
): Promise<SavedMessage> {
  const [row] = await db
    .insert(savedMessages)
    .values({ ...(await rowFields(db, userId, input, outbound)), userId })
    .returning();
  return toSavedMessage(row);
}

export async function updateSavedMessage(
  db: Db,
  userId: string,
  id: string,
  input: SavedMessageFields,
  outbound: OutboundPolicy = { allowPrivate: false },
): Promise<SavedMessage> {
  const fields = await rowFields(db, userId, input, outbound);
  const [row] = await db
    .update(savedMessages)
    .set({ ...fields, updatedAt: new Date() })
    .where(ofAccount(savedMessages, userId, eq(savedMessages.id, id)))
    .returning();
  if (!row) throw new AppError('NOT_FOUND', savedMessagesMsg.notFound);
  return toSavedMessage(row);
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
 * A saved message as a campaign's content: the text WhatsApp receives and its image (the http(s)
 * link, or `upload:<id>` for an uploaded image), or null when the account has no such message.
 */
export async function savedMessageAsContent(
  db: Db,
  userId: string,
  id: string,
): Promise<{ message: string; imageUrl: string | null } | null> {
  const row = await findRow(db, userId, id);
  if (!row) return null;
  return { message: savedMessageText(row), imageUrl: savedMessageImageRef(row) };
}

// Restore (modules/backup)

/** Rows written per statement on restore (modules/backup). */
const RESTORE_BATCH = 500;

/**
 * Saved messages by title, content type and content: one the account has is not added again.
 * `restoreImage` answers the account's upload for a message's image, or null when it could not
 * come back (the caller reports why); the message is then restored without it.
 */
export async function restoreSavedMessages(
  t: Db,
  userId: string,
  list: BackupFile['savedMessages'],
  restoreImage: (uploadId: string, title: string) => Promise<{ id: string; fileName: string | null } | null>,
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
    fresh.push({
      userId,
      title: m.title,
      type: m.type,
      enableMessage: m.enableMessage,
      hasImage,
      imageUrl: hasImage ? m.imageUrl : '',
      imageFile: hasImage ? imageFile : '',
      uploadId: hasImage ? uploadId : null,
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
