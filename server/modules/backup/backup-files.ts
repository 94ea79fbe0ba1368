import { randomUUID } from 'node:crypto';
import { backupMsg } from '../../../contract/backup';
import { MEDIA_MAX_BYTES, type MediaKind } from '../../../contract/message-content';
import { uploadsMsg } from '../../../contract/uploads';
import type { Db } from '../../db/client';
import { mediaUploads } from '../../db/schema';
import { detectFile, HEAD_BYTES } from '../../media/file-type';
import { accountFileKey, type MediaStore, MediaTooLarge, readWhole } from '../../media/store';
import { oggOpusDuration } from '../../media/webm-to-ogg';
import { keptFileName, makeUploadRoom } from '../uploads';
import type { Turns } from './backup-json';
import type { MediaEntry } from './backup-media';

/**
 * Files of the media store (documents, audio, video, stickers) in a backup: written out of the
 * store as base64 a piece at a time, and read back into it a piece at a time, so that neither the
 * export nor the restore holds a whole file as one string, nor the thread for long.
 */

/** Bytes encoded per piece of the export: a whole number of 3-byte groups, so pieces join into one base64 text. */
const EXPORT_PIECE_BYTES = 3 * 256 * 1024;

/**
 * The base64 of a stream, in pieces: each but the last encodes a whole number of 3-byte groups, so
 * the pieces written one after the other are the base64 of the whole stream.
 */
export async function* base64Pieces(
  body: AsyncIterable<Uint8Array>,
  pieceBytes = EXPORT_PIECE_BYTES,
): AsyncGenerator<string> {
  if (pieceBytes % 3 !== 0) throw new Error('pieces must be whole 3-byte groups');
  let carry: Buffer = Buffer.alloc(0);
  for await (const part of body) {
    const chunk = Buffer.isBuffer(part) ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    const all = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = all.length - (all.length % 3);
    for (let at = 0; at < whole; at += pieceBytes) yield all.toString('base64', at, Math.min(whole, at + pieceBytes));
    carry = Buffer.from(all.subarray(whole));
  }
  if (carry.length) yield carry.toString('base64');
}

/** The base64 of an entry is not strict base64 (RFC 4648 §4). */
export class CorruptedBase64 extends Error {}

/** Base64 characters decoded per piece on restore: a few milliseconds of the thread. */
const RESTORE_PIECE_CHARS = 1 << 20;

/**
 * Strict base64 between `start` and `end` of `file`, decoded a piece at a time with a pause when a
 * turn is over: each piece decoded, then encoded again to the very same text (padding only at the
 * very end), or CorruptedBase64.
 */
export async function* decodeBase64InTurns(
  file: Buffer,
  start: number,
  end: number,
  turns: Turns,
  pieceChars = RESTORE_PIECE_CHARS,
): AsyncGenerator<Buffer> {
  if ((end - start) % 4 !== 0 || pieceChars % 4 !== 0) throw new CorruptedBase64();
  for (let at = start; at < end; at += pieceChars) {
    const stop = Math.min(end, at + pieceChars);
    const text = file.toString('latin1', at, stop);
    if (stop < end && text.endsWith('=')) throw new CorruptedBase64();
    const data = Buffer.from(text, 'base64');
    if (data.toString('base64') !== text) throw new CorruptedBase64();
    yield data;
    await turns.next();
  }
}

/** The decoded size of a base64 text of `length` characters ending as `file` does at `end`. */
function decodedSize(file: Buffer, end: number, length: number): number {
  let padding = 0;
  if (length >= 1 && file[end - 1] === 0x3d) padding++;
  if (length >= 2 && file[end - 2] === 0x3d) padding++;
  return (length / 4) * 3 - padding;
}

const LARGEST = Math.max(...Object.values(MEDIA_MAX_BYTES));
const BASE64_LARGEST = Math.ceil(LARGEST / 3) * 4;

/** What became of a file of the store a backup carries. `image`: its bytes are an image, restored as one. */
export type RestoredStoreFile = { id: string; fileName: string; kind: MediaKind } | { problem: string } | 'image';

/**
 * One file of the media store from a backup, as a new file of the restoring account: its kind
 * decided by its own bytes (never the name or kind the file claims; what is not accepted is
 * refused as an upload is), within Meta's limit for that kind and the account's room
 * (makeUploadRoom, in the restore's transaction `t`), streamed into the store under a new id and
 * checked against the SHA-256 the export gave. `written` collects the keys stored, for the caller to
 * remove should its transaction not commit. A refusal keeps nothing and answers why.
 */
export async function restoreStoreFile(
  t: Db,
  store: MediaStore,
  userId: string,
  file: Buffer,
  entry: MediaEntry,
  opts: { quotaMb: number | undefined; turns: Turns; written: string[] },
): Promise<RestoredStoreFile> {
  const { start, end } = entry;
  const length = end - start;
  if (length === 0) return { problem: uploadsMsg.emptyFile };
  if (length > BASE64_LARGEST) return { problem: uploadsMsg.fileTooLarge };
  if (entry.escaped || length % 4 !== 0) return { problem: backupMsg.fileCorrupted };
  const size = decodedSize(file, end, length);
  // The start that decides what the file is, in whole quartets (checked strictly with the rest below).
  const headChars = Math.min(length, Math.floor(HEAD_BYTES / 3) * 4);
  const head = Buffer.from(file.toString('latin1', start, start + headChars), 'base64');
  const sticker = entry.kind === 'sticker';
  const detected = await detectFile(head, { declaredName: entry.fileName, totalSize: size, asSticker: sticker });
  if ('refused' in detected) return { problem: detected.refused };
  if (detected.kind === 'image') return 'image';
  await opts.turns.pause();
  const room = await makeUploadRoom(t, userId, size, opts.quotaMb);
  if (!room.fits) return { problem: uploadsMsg.quotaExceeded(room.limitBytes, room.usedBytes) };
  const id = randomUUID();
  const key = accountFileKey(userId, id);
  opts.written.push(key);
  let stored: { size: number; sha256: string };
  try {
    stored = await store.put(key, decodeBase64InTurns(file, start, end, opts.turns), MEDIA_MAX_BYTES[detected.kind]);
  } catch (err) {
    if (err instanceof CorruptedBase64) return { problem: backupMsg.fileCorrupted };
    if (err instanceof MediaTooLarge) return { problem: uploadsMsg.fileTooLarge };
    throw err;
  }
  if ((entry.sha256 && stored.sha256 !== entry.sha256) || stored.size !== size) {
    await store.delete(key);
    return { problem: backupMsg.fileCorrupted };
  }
  const voice =
    entry.voice && detected.kind === 'audio' && detected.voiceCapable ? await voiceNoteSeconds(store, key) : null;
  const fileName = keptFileName(
    entry.fileName,
    detected.extension,
    detected.kind === 'document' ? 'documento' : detected.kind,
  );
  await t.insert(mediaUploads).values({
    id,
    userId,
    fileName,
    mimeType: detected.mimeType,
    size: stored.size,
    kind: detected.kind,
    origin: 'upload',
    state: 'ready',
    storageKey: key,
    sha256: stored.sha256,
    voice: voice !== null,
    durationSeconds: voice,
  });
  return { id, fileName, kind: detected.kind };
}

/**
 * The seconds of a voice note the backup carried, read from its own Ogg Opus pages as an upload's
 * are (at most Meta's audio limit, held once); null when they do not read as one, and the file is
 * restored as plain audio.
 */
async function voiceNoteSeconds(store: MediaStore, key: string): Promise<number | null> {
  try {
    return Math.max(1, Math.round(oggOpusDuration(await readWhole(store, key))));
  } catch {
    return null;
  }
}
