import { eq, inArray } from 'drizzle-orm';
import { MEDIA_KINDS, type MediaKind } from '../../contract/message-content';
import { ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { mediaUploads } from '../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a message needs to know of one of the account's files before sending it. */
export interface ReadyFile {
  kind: MediaKind;
  mimeType: string;
  fileName: string;
  voice: boolean;
  durationSeconds: number | null;
}

/**
 * One of the account's files whose bytes are stored (uploaded, linked, or received and fetched), or
 * null: an id that is not one, another account's file and one still being fetched are alike absent.
 */
export async function readyAccountFile(db: Db, userId: string, id: string): Promise<ReadyFile | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({
      kind: mediaUploads.kind,
      mimeType: mediaUploads.mimeType,
      fileName: mediaUploads.fileName,
      voice: mediaUploads.voice,
      durationSeconds: mediaUploads.durationSeconds,
      state: mediaUploads.state,
    })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, id)));
  if (row?.state !== 'ready') return null;
  const { state: _state, ...file } = row;
  return { ...file, kind: row.kind as MediaKind };
}

/** A ready file of the account as a list shows it: what `ReadyFile` says, its size and id. */
export interface ListedFile extends ReadyFile {
  id: string;
  size: number;
}

/**
 * The account's ready files (uploaded, linked or received) among `ids`, by id, in one statement:
 * what a list of campaigns or saved messages shows of each row's file. Ids that are not files of
 * the account, or not ready, are left out.
 */
export async function readyAccountFiles(
  db: Db,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, ListedFile>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const out = new Map<string, ListedFile>();
  if (!wanted.length) return out;
  const rows = await db
    .select({
      id: mediaUploads.id,
      kind: mediaUploads.kind,
      mimeType: mediaUploads.mimeType,
      fileName: mediaUploads.fileName,
      size: mediaUploads.size,
      voice: mediaUploads.voice,
      durationSeconds: mediaUploads.durationSeconds,
    })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, inArray(mediaUploads.id, wanted), eq(mediaUploads.state, 'ready')));
  for (const r of rows) {
    if ((MEDIA_KINDS as readonly string[]).includes(r.kind)) out.set(r.id, { ...r, kind: r.kind as MediaKind });
  }
  return out;
}
