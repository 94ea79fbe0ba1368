import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../../../contract/uploads';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { defineJob } from '../../jobs/define';
import { accountFileKey, type MediaStore } from '../../media/store';

/**
 * Images uploaded before the media store kept their bytes in `media_uploads.data`. This chore
 * moves them into the store, one image at a time (at most UPLOAD_MAX_BYTES held), so that every
 * file of an account is kept one way. Each image is put under its account's key first, then its
 * row points at it and loses its bytes in one update that only matches a row still holding them;
 * a row deleted (or moved by another run) meanwhile matches nothing and the bytes just put are
 * removed again. Reading an image that is not moved yet still works (loadUpload), so the chore
 * can take its time.
 */

/** Images moved per run before the next run is left to the chore's schedule. */
const PER_RUN = 200;

/** Moves up to `limit` images of any account; answers how many moved. */
export async function moveLegacyImages(
  db: Db,
  store: MediaStore,
  opts: { limit?: number; signal?: AbortSignal } = {},
): Promise<number> {
  let moved = 0;
  const limit = opts.limit ?? PER_RUN;
  let after = '00000000-0000-0000-0000-000000000000';
  while (moved < limit && !opts.signal?.aborted) {
    // Accounts are not the point here: every account's legacy images, by id (the partial index).
    const [row] = rowsOf<{ id: string; user_id: string; data: string }>(
      await db.execute(sql`
        select id::text, user_id::text, encode(data, 'base64') as data from media_uploads
        where data is not null and id > ${after}::uuid
        order by id limit 1`),
    );
    if (!row) break;
    after = row.id;
    const key = accountFileKey(row.user_id, row.id);
    const stored = await store.put(key, [Buffer.from(row.data, 'base64')], UPLOAD_MAX_BYTES);
    const updated = rowsOf(
      await db.execute(sql`
        update media_uploads set storage_key = ${key}, sha256 = ${stored.sha256}, size = ${stored.size},
          state = 'ready', data = null
        where ${accountSql(row.user_id)} and id = ${row.id}::uuid and data is not null
        returning id`),
    );
    if (updated.length) moved++;
    else await store.delete(key);
  }
  return moved;
}

/** `media.move-legacy-images`: every ten minutes, one process at a time (registered in server/app.ts). */
export function moveLegacyImagesChore(store: MediaStore) {
  return defineJob({
    name: 'media.move-legacy-images',
    payload: z.object({}),
    every: 10 * 60_000,
    maxAttempts: 3,
    handler: async (_payload, { db, signal, discard }) => {
      if ((await moveLegacyImages(db, store, { signal })) === 0) discard();
    },
  });
}
