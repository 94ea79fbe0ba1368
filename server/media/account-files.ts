import { eq } from 'drizzle-orm';
import type { MediaKind } from '../../contract/message-content';
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
