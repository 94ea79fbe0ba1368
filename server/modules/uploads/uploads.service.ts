import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { MEDIA_MAX_BYTES, type MediaKind, messageContentMsg } from '../../../contract/message-content';
import { storageLimitMb } from '../../../contract/plans';
import {
  baseFileName,
  UPLOAD_MAX_BYTES,
  UPLOAD_REF_PREFIX,
  type Upload,
  type UploadMimeType,
  type UploadUsage,
  uploadsMsg,
  uploadUrl,
} from '../../../contract/uploads';
import { lockAccount } from '../../db/account-lock';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { mediaUploads, users } from '../../db/schema';
import { AppError } from '../../errors';
import { defineJob } from '../../jobs/define';
import { insertJob } from '../../jobs/runner';
import { detectFile } from '../../media/file-type';
import { accountFileKey, type MediaStore, MediaTooLarge, readWhole } from '../../media/store';
import { oggOpusDuration, webmOpusToOgg } from '../../media/webm-to-ogg';
import type { FileOpener } from '../../whatsapp/account-file';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Image bytes in and out of the database as base64 text, turned into bytea by the database itself:
 * the embedded database converts a bytea parameter or result in JavaScript, on the server's thread,
 * at seconds per megabyte (a 5 MB image: 14 s in, 2 s out), while `decode`/`encode` of its base64
 * take a fraction of a second. PostgreSQL answers the same either way.
 */
export const bytesIn = (data: Buffer) => sql`decode(${data.toString('base64')}, 'base64')`;
export const bytesOut = () => sql<string>`encode(${mediaUploads.data}, 'base64')`;

const EXTENSIONS: Record<UploadMimeType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** The image type its first bytes say, whatever the file is called or claims to be; null for anything else. */
export function detectImageType(data: Buffer): UploadMimeType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

/**
 * The name an upload is kept and served under: no folders, no control or quoting characters, and the
 * extension of what the bytes really are (a PNG sent as `foto.exe` becomes `foto.png`).
 */
export function storedFileName(name: string | undefined, mimeType: UploadMimeType): string {
  const base = baseFileName(name ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
    .replace(/[\u0000-\u001f\u007f-\u009f"<>|:*?]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const stem = base.replace(/\.[^.]*$/, '').slice(0, 120) || 'imagem';
  return `${stem}.${EXTENSIONS[mimeType]}`;
}

/** `Content-Disposition` for showing an upload in the browser, with an ASCII fallback name and the UTF-8 one. */
export function fileDisposition(fileName: string, how: 'inline' | 'attachment' = 'inline'): string {
  const ascii =
    fileName
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\;%]/g, '_') || 'imagem';
  return `${how}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

function toUpload(row: { id: string; fileName: string; mimeType: string; size: number }): Upload {
  return {
    id: row.id,
    url: uploadUrl(row.id),
    fileName: row.fileName,
    mimeType: row.mimeType as UploadMimeType,
    size: row.size,
  };
}

/**
 * Bytes the account's files take: every upload, image or not, in the database or in the media
 * store. Files contacts sent (`origin` 'inbound') are not counted: the account does not choose
 * them, and an incoming message is never refused for room.
 */
const storedBytes = async (db: Db, userId: string) =>
  Number(
    rowsOf<{ total: string | number }>(
      await db.execute(
        sql`select coalesce(sum(size), 0) as total from media_uploads where ${accountSql(userId)} and origin = 'upload'`,
      ),
    )[0]?.total ?? 0,
  );

/** The account's room for files in bytes: its plan's (STORAGE_LIMITS_MB), or `overrideMb` when set. */
async function storageLimitBytes(db: Db, userId: string, overrideMb: number | undefined): Promise<number> {
  if (overrideMb !== undefined) return overrideMb * 1024 * 1024;
  const [row] = await db.select({ planType: users.planType }).from(users).where(eq(users.id, userId));
  return storageLimitMb(row?.planType ?? 'basic') * 1024 * 1024;
}

/** `GET /api/uploads/usage`: what the account's files take and its room for them. */
export async function storageUsage(db: Db, userId: string, overrideMb?: number): Promise<UploadUsage> {
  return { usedBytes: await storedBytes(db, userId), limitBytes: await storageLimitBytes(db, userId, overrideMb) };
}

/** What a media store file's row leaves behind when it is deleted: its key, removed after commit. */
type Removed = { id: string; storage_key: string | null };

/** Whether nothing of the account (a campaign, saved message, bot rule or conversation) refers to file `u`. */
const unused = (userId: string) => sql`
  not exists (select 1 from conversation_messages s where ${accountSql(userId, 's.user_id')} and s.media_id = u.id)
  and not exists (select 1 from campaigns c where ${accountSql(userId, 'c.user_id')}
    and (c.image_url = ${UPLOAD_REF_PREFIX} || u.id::text or c.media_url = ${UPLOAD_REF_PREFIX} || u.id::text))
  and not exists (select 1 from saved_messages m where ${accountSql(userId, 'm.user_id')}
    and (m.upload_id = u.id or m.media_url = ${UPLOAD_REF_PREFIX} || u.id::text))
  and not exists (select 1 from auto_replies r where ${accountSql(userId, 'r.user_id')}
    and (r.image_url = ${UPLOAD_REF_PREFIX} || u.id::text or r.media_url = ${UPLOAD_REF_PREFIX} || u.id::text))`;

/**
 * Removes the account's uploads that nothing uses (no campaign, saved message, bot rule or
 * conversation refers to them) once they are a day old: files picked in a dialog that was then
 * cancelled. A file in the media store loses its row here and its bytes after this transaction
 * commits (a `media.delete-stored` job written in it).
 */
export async function pruneUnusedUploads(db: Db, userId: string): Promise<number> {
  const removed = rowsOf<Removed>(
    await db.execute(sql`
      delete from media_uploads u
      where ${accountSql(userId, 'u.user_id')} and u.origin = 'upload' and u.created_at < now() - interval '1 day'
        and ${unused(userId)}
      returning u.id, u.storage_key`),
  );
  await deleteStoredLater(db, userId, removed);
  return removed.length;
}

/** The file ids a row's references name: `upload:<id>` links and bare ids; links and blanks are skipped. */
function fileIdsOf(refs: readonly (string | null | undefined)[]): string[] {
  const ids = new Set<string>();
  for (const ref of refs) {
    if (!ref) continue;
    const id = ref.startsWith(UPLOAD_REF_PREFIX) ? ref.slice(UPLOAD_REF_PREFIX.length) : ref;
    if (UUID.test(id)) ids.add(id.toLowerCase());
  }
  return [...ids];
}

/**
 * Frees at once the account's files a deleted campaign, saved message or bot rule referred to
 * (`refs`: its `upload:<id>` links and upload ids), those nothing else of the account uses; a
 * file another row still uses stays, and another account's id matches nothing. Called after the
 * row is deleted, in its transaction or after it; it takes the account's uploads lock, as an upload
 * does. A file in the media store loses its bytes after the transaction commits. Answers how many
 * files were freed.
 */
export async function releaseFiles(
  db: Db,
  userId: string,
  refs: readonly (string | null | undefined)[],
): Promise<number> {
  const ids = fileIdsOf(refs);
  if (!ids.length) return 0;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await lockAccount(t, userId, 'uploads');
    const removed = rowsOf<Removed>(
      await t.execute(sql`
        delete from media_uploads u
        where ${accountSql(userId, 'u.user_id')} and u.origin = 'upload'
          and u.id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          and ${unused(userId)}
        returning u.id, u.storage_key`),
    );
    await deleteStoredLater(t, userId, removed);
    return removed.length;
  });
}

/** The job that removes freed files' bytes from the media store, once their rows' deletion commits. */
export const DELETE_STORED_JOB = 'media.delete-stored';
const deleteStoredPayload = z.object({ userId: z.uuid(), keys: z.array(z.string().min(1)).min(1).max(10_000) });
const DELETE_STORED_ATTEMPTS = 10;
const deleteStored = { name: DELETE_STORED_JOB, payload: deleteStoredPayload, maxAttempts: DELETE_STORED_ATTEMPTS };

/**
 * Writes, in the transaction that deletes the rows, the job that deletes their bytes: it runs only
 * if that transaction commits, and is retried until the store answers (a missing key is no error).
 */
async function deleteStoredLater(tx: Db, userId: string, removed: readonly Removed[]): Promise<void> {
  const keys = removed.flatMap((r) => (r.storage_key ? [r.storage_key] : []));
  if (!keys.length) return;
  await insertJob(tx, deleteStored, { userId, keys }, { accountId: userId });
}

/**
 * Before accounts are deleted (their rows go through the foreign keys), in the same transaction:
 * the jobs that remove their files' bytes from the media store once the deletion commits. Written
 * without an account, so the account's deletion does not take them with it.
 */
export async function releaseAccountsFiles(tx: Db, userIds: readonly string[]): Promise<void> {
  for (const userId of userIds) {
    const keys = rowsOf<{ key: string }>(
      await tx.execute(sql`
        select storage_key as key from media_uploads where ${accountSql(userId)} and storage_key is not null`),
    ).map((r) => r.key);
    for (let at = 0; at < keys.length; at += 10_000) {
      await insertJob(tx, deleteStored, { userId, keys: keys.slice(at, at + 10_000) });
    }
  }
}

/** `media.delete-stored`: registered with the job runner (server/app.ts). */
export function deleteStoredJob(store: MediaStore) {
  return defineJob({
    name: DELETE_STORED_JOB,
    payload: deleteStoredPayload,
    maxAttempts: DELETE_STORED_ATTEMPTS,
    backoff: { baseMs: 5_000, maxMs: 30 * 60_000 },
    handler: async ({ userId, keys }) => {
      // Only the account's own keys: the payload is this module's, but a key is checked anyway.
      for (const key of keys) if (key.startsWith(`${userId}/`)) await store.delete(key);
    },
  });
}

/** Whether more bytes fit in the account's room, and what it holds (for the refusal's message). */
export interface UploadRoom {
  fits: boolean;
  usedBytes: number;
  limitBytes: number;
}

/**
 * Whether `bytes` more fit in the account's room for files (its plan's, or `quotaMb` when set);
 * when they do not, unused old uploads are pruned first. Called in the transaction that then stores
 * them: it takes the account's uploads lock first, so concurrent uploads (and restores) of one
 * account are counted one after the other, in every process, until that transaction ends — files
 * in the media store as much as images in the database. A backup restore asks once for all the
 * images it may store, before it looks at the account's own uploads: a prune in the middle could
 * remove one a restored row is about to point at.
 */
export async function makeUploadRoom(
  tx: Db,
  userId: string,
  bytes: number,
  quotaMb: number | undefined,
): Promise<UploadRoom> {
  await lockAccount(tx, userId, 'uploads');
  const limitBytes = await storageLimitBytes(tx, userId, quotaMb);
  let usedBytes = await storedBytes(tx, userId);
  if (usedBytes + bytes <= limitBytes) return { fits: true, usedBytes, limitBytes };
  await pruneUnusedUploads(tx, userId);
  usedBytes = await storedBytes(tx, userId);
  return { fits: usedBytes + bytes <= limitBytes, usedBytes, limitBytes };
}

/** The 413 of a file that does not fit, naming the room and what is used. */
const noRoom = (room: UploadRoom) =>
  new AppError('PAYLOAD_TOO_LARGE', uploadsMsg.quotaExceeded(room.limitBytes, room.usedBytes));

/** A file already put into the media store under `key`, to become one of the account's uploads. */
interface StoredUpload {
  id: string;
  key: string;
  stored: { size: number; sha256: string };
  fileName: string;
  mimeType: string;
  kind: MediaKind;
  voice?: boolean;
  durationSeconds?: number | null;
}

/**
 * The row of an upload whose bytes are in the media store, written when the account has room for
 * it (makeUploadRoom, under the account's uploads lock); when it has not, or the write fails, the
 * bytes leave the store and the refusal (413, in Portuguese) is thrown.
 */
async function recordUpload(db: Db, store: MediaStore, userId: string, file: StoredUpload, quotaMb?: number) {
  try {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const room = await makeUploadRoom(t, userId, file.stored.size, quotaMb);
      if (!room.fits) throw noRoom(room);
      await t.insert(mediaUploads).values({
        id: file.id,
        userId,
        fileName: file.fileName,
        mimeType: file.mimeType,
        size: file.stored.size,
        kind: file.kind,
        origin: 'upload',
        state: 'ready',
        storageKey: file.key,
        sha256: file.stored.sha256,
        voice: file.voice ?? false,
        durationSeconds: file.durationSeconds ?? null,
      });
    });
  } catch (err) {
    await store.delete(file.key).catch(() => undefined);
    throw err;
  }
}

/**
 * Stores an image (JPEG, PNG or WebP by its bytes, at most UPLOAD_MAX_BYTES) for the account, in
 * the media store as every other file; anything else is a 400 (413 above the size). The account's
 * files share its room (makeUploadRoom): when it runs out, unused old uploads are pruned first, and
 * only then is the upload refused (413, in Portuguese). A backup restore stores its images through
 * here; `written` collects the key put, for a caller whose own transaction may still roll back.
 */
export async function saveUpload(
  db: Db,
  store: MediaStore,
  userId: string,
  file: { fileName: string | undefined; data: Buffer },
  opts: { quotaMb?: number; written?: string[] },
): Promise<Upload> {
  if (file.data.length === 0) throw new AppError('VALIDATION', uploadsMsg.emptyFile);
  if (file.data.length > UPLOAD_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', uploadsMsg.tooLarge);
  const mimeType = detectImageType(file.data);
  if (!mimeType) throw new AppError('VALIDATION', uploadsMsg.invalidType);
  const id = randomUUID();
  const key = accountFileKey(userId, id);
  opts.written?.push(key);
  const stored = await store.put(key, [file.data], UPLOAD_MAX_BYTES);
  const upload = {
    id,
    key,
    stored,
    fileName: storedFileName(file.fileName, mimeType),
    mimeType,
    kind: 'image' as const,
  };
  await recordUpload(db, store, userId, upload, opts.quotaMb);
  return toUpload({ id, fileName: upload.fileName, mimeType, size: stored.size });
}

/** An upload's metadata when it belongs to the account, else null. */
export async function findUpload(db: Db, userId: string, id: string): Promise<Upload | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({
      id: mediaUploads.id,
      fileName: mediaUploads.fileName,
      mimeType: mediaUploads.mimeType,
      size: mediaUploads.size,
    })
    .from(mediaUploads)
    .where(
      ofAccount(
        mediaUploads,
        userId,
        eq(mediaUploads.id, id),
        eq(mediaUploads.origin, 'upload'),
        eq(mediaUploads.kind, 'image'),
      ),
    );
  return row ? toUpload(row) : null;
}

/**
 * An upload's bytes, type and name when it belongs to the account, else null (another account's id
 * is as unknown as a missing one). The sending engine uses it to send an uploaded image.
 */
export async function loadUpload(
  db: Db,
  store: MediaStore,
  userId: string,
  id: string,
): Promise<{ data: Buffer; mimeType: string; fileName: string } | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({
      legacy: bytesOut(),
      storageKey: mediaUploads.storageKey,
      mimeType: mediaUploads.mimeType,
      fileName: mediaUploads.fileName,
    })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, id), eq(mediaUploads.origin, 'upload')));
  if (!row) return null;
  const { mimeType, fileName } = row;
  // An image uploaded before the media store keeps its bytes in its row until moveLegacyImages runs.
  if (row.legacy) return { data: Buffer.from(row.legacy, 'base64'), mimeType, fileName };
  if (!row.storageKey) return null;
  const data = await readWhole(store, row.storageKey).catch(() => null);
  return data ? { data, mimeType, fileName } : null;
}

/** Types a browser may show in the page: images, audio and video it plays. Anything else downloads. */
const SHOWN_TYPES = /^(image\/(jpeg|png|webp|gif)|audio\/(ogg|opus|mpeg|mp4|aac|amr|webm|wav)|video\/(mp4|3gpp|webm))$/;
/** Types a download keeps (the browser picks the right program); any other goes as octet-stream. */
const DOWNLOAD_TYPES =
  /^(application\/(pdf|msword|vnd\.openxmlformats-officedocument\.[a-z.]+|vnd\.ms-[a-z]+|zip)|text\/(plain|csv))$/;

/** How a file is served: its own type where the browser shows it safely, else a download that renders nothing. */
export function servedAs(mimeType: string): { contentType: string; inline: boolean } {
  const type = mimeType.toLowerCase();
  if (SHOWN_TYPES.test(type)) return { contentType: type, inline: true };
  return { contentType: DOWNLOAD_TYPES.test(type) ? type : 'application/octet-stream', inline: false };
}

/**
 * Any of the account's files (an upload, or a file a contact sent) to serve, else null; a received
 * file not fetched yet, or that could not be, says so (409, 404).
 */
export async function openFile(
  db: Db,
  store: MediaStore,
  userId: string,
  id: string,
): Promise<{ mimeType: string; fileName: string; size: number; body: Buffer | Readable } | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({
      mimeType: mediaUploads.mimeType,
      fileName: mediaUploads.fileName,
      size: mediaUploads.size,
      origin: mediaUploads.origin,
      state: mediaUploads.state,
      storageKey: mediaUploads.storageKey,
    })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, id)));
  if (!row) return null;
  // An image uploaded before the media store keeps its bytes in its row.
  if (row.origin === 'upload' && !row.storageKey) {
    const upload = await loadUpload(db, store, userId, id);
    return upload ? { ...upload, size: upload.data.length, body: upload.data } : null;
  }
  if (row.state === 'pending') throw new AppError('CONFLICT', messageContentMsg.pending);
  const body = row.state === 'ready' && row.storageKey ? await store.get(row.storageKey) : null;
  if (!body) throw new AppError('NOT_FOUND', messageContentMsg.failed);
  return { mimeType: row.mimeType, fileName: row.fileName, size: row.size, body };
}

/**
 * The account's files for the drivers (whatsapp/account-file.ts): a received or stored file streams
 * from the media store, an upload kept in the database is read once and handed out as one chunk.
 */
export function accountFileOpener(db: Db, store: MediaStore): FileOpener {
  return async (userId, fileId) => {
    if (!UUID.test(fileId)) return null;
    const [row] = await db
      .select({
        mimeType: mediaUploads.mimeType,
        fileName: mediaUploads.fileName,
        size: mediaUploads.size,
        sha256: mediaUploads.sha256,
        state: mediaUploads.state,
        storageKey: mediaUploads.storageKey,
        legacy: sql<boolean>`${mediaUploads.data} is not null`,
      })
      .from(mediaUploads)
      .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, fileId)));
    if (row?.state !== 'ready') return null;
    const { storageKey } = row;
    if (row.legacy || !storageKey) {
      const upload = await loadUpload(db, store, userId, fileId);
      if (!upload) return null;
      const data = upload.data;
      return {
        ...row,
        size: data.length,
        open: async () =>
          (async function* () {
            yield data;
          })(),
      };
    }
    return {
      ...row,
      open: async () => {
        const body = await store.get(storageKey);
        if (!body) throw new Error('the file is no longer in the media store');
        return body;
      },
    };
  };
}

/** Bytes of a file's start that decide what it is (docs/decisions/042-media-store.md). */
const HEAD_BYTES = 4 * 1024 * 1024;
const LARGEST = Math.max(...Object.values(MEDIA_MAX_BYTES));

/** A name kept and served: no folders, no control or quoting characters, and the extension of what the bytes are. */
export function keptFileName(name: string | undefined, extension: string, fallback: string): string {
  const base = baseFileName(name ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
    .replace(/[\u0000-\u001f\u007f-\u009f"<>|:*?]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const stem = base.replace(/\.[^.]*$/, '').slice(0, 120) || fallback;
  return `${stem}.${extension}`;
}

/**
 * Stores any file the account sends (the upload route): an image as before (saveUpload), and a
 * document, audio, video or sticker streamed into the media store, decided by its own bytes, never
 * its name, each kind within Meta's limit; a voice note recorded in the page (WebM/Opus) is remuxed
 * into OGG/Opus without re-encoding, so it plays as one on phones. A refusal is a 400 (413 above a
 * limit or the account's room) in Portuguese, and nothing of the file is kept.
 */
export async function saveFile(
  db: Db,
  store: MediaStore,
  userId: string,
  file: { fileName: string | undefined; stream: AsyncIterable<Uint8Array>; truncated: () => boolean },
  opts: { quotaMb?: number; voice?: boolean; sticker?: boolean; imageOnly?: boolean },
): Promise<Upload> {
  const id = randomUUID();
  const key = accountFileKey(userId, id);
  const head: Buffer[] = [];
  let headBytes = 0;
  async function* tee(): AsyncGenerator<Uint8Array> {
    for await (const part of file.stream) {
      const chunk = Buffer.isBuffer(part) ? part : Buffer.from(part);
      if (headBytes < HEAD_BYTES) {
        const take = chunk.subarray(0, HEAD_BYTES - headBytes);
        head.push(take);
        headBytes += take.length;
      }
      yield chunk;
    }
  }
  let stored: { size: number; sha256: string };
  try {
    stored = await store.put(key, tee(), LARGEST);
  } catch (err) {
    if (err instanceof MediaTooLarge) throw new AppError('PAYLOAD_TOO_LARGE', uploadsMsg.fileTooLarge);
    throw err;
  }
  const refuse = async (code: 'VALIDATION' | 'PAYLOAD_TOO_LARGE', message: string): Promise<never> => {
    await store.delete(key);
    throw new AppError(code, message);
  };
  if (file.truncated()) return refuse('PAYLOAD_TOO_LARGE', uploadsMsg.fileTooLarge);
  if (stored.size === 0) return refuse('VALIDATION', uploadsMsg.emptyFile);
  const start = Buffer.concat(head, headBytes);
  const image = opts.sticker ? null : detectImageType(start);
  if (image) {
    // Images keep the limit and messages they always had (UPLOAD_MAX_BYTES).
    if (stored.size > UPLOAD_MAX_BYTES) return refuse('PAYLOAD_TOO_LARGE', uploadsMsg.tooLarge);
    const fileName = storedFileName(file.fileName, image);
    await recordUpload(db, store, userId, { id, key, stored, fileName, mimeType: image, kind: 'image' }, opts.quotaMb);
    return { ...toUpload({ id, fileName, mimeType: image, size: stored.size }), kind: 'image' };
  }
  if (opts.imageOnly) return refuse('VALIDATION', uploadsMsg.invalidType);
  const detected = await detectFile(start, {
    declaredName: file.fileName,
    totalSize: stored.size,
    asSticker: opts.sticker,
  });
  if ('refused' in detected) {
    return refuse(/grande/i.test(detected.refused) ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION', detected.refused);
  }
  if (detected.kind === 'image') return refuse('VALIDATION', uploadsMsg.invalidType);
  let mimeType = detected.mimeType;
  let extension = detected.extension;
  let voice = false;
  let durationSeconds: number | null = null;
  if (detected.kind === 'audio' && (opts.voice || mimeType === 'audio/webm')) {
    try {
      let ogg = await readWhole(store, key);
      if (mimeType === 'audio/webm') ogg = webmOpusToOgg(ogg);
      if (detected.voiceCapable || mimeType === 'audio/webm') {
        durationSeconds = Math.max(1, Math.round(oggOpusDuration(ogg)));
        stored = await store.put(key, [ogg], LARGEST);
        mimeType = 'audio/ogg';
        extension = 'ogg';
        voice = Boolean(opts.voice) || detected.mimeType === 'audio/webm';
      }
    } catch {
      return refuse('VALIDATION', uploadsMsg.voiceInvalid);
    }
  }
  const fileName = voice
    ? `mensagem-de-voz-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.ogg`
    : keptFileName(file.fileName, extension, detected.kind === 'document' ? 'documento' : detected.kind);
  const size = stored.size;
  const upload = { id, key, stored, fileName, mimeType, kind: detected.kind, voice, durationSeconds };
  await recordUpload(db, store, userId, upload, opts.quotaMb);
  return {
    id,
    url: uploadUrl(id),
    fileName,
    mimeType,
    size,
    kind: detected.kind,
    ...(voice ? { voice: true } : {}),
    ...(durationSeconds ? { durationSeconds } : {}),
  };
}
