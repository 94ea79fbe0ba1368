import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { cloudMediaIds } from '../../db/schema';
import { MEDIA_ID_TTL_MS, type SharedMediaIds } from './media-ids';

/**
 * One Cloud API number's media ids in the database (`cloud_media_ids`), for every process: a file
 * uploaded by the process that sent it first is sent by id from any other, and after a restart.
 * Read only when a process's own memory misses, so once per file and process at most.
 */
export function databaseMediaIds(db: Db, userId: string, phoneNumberId: string): SharedMediaIds {
  const fresh = () => sql`now() - make_interval(secs => ${MEDIA_ID_TTL_MS / 1000})`;
  return {
    async get(fileKey) {
      const [row] = await db
        .select({ mediaId: cloudMediaIds.mediaId })
        .from(cloudMediaIds)
        .where(
          ofAccount(
            cloudMediaIds,
            userId,
            eq(cloudMediaIds.phoneNumberId, phoneNumberId),
            eq(cloudMediaIds.fileKey, fileKey),
            gt(cloudMediaIds.uploadedAt, fresh()),
          ),
        );
      return row?.mediaId ?? null;
    },
    async set(fileKey, mediaId) {
      await db
        .insert(cloudMediaIds)
        .values({ userId, phoneNumberId, fileKey, mediaId })
        .onConflictDoUpdate({
          target: [cloudMediaIds.userId, cloudMediaIds.phoneNumberId, cloudMediaIds.fileKey],
          set: { mediaId, uploadedAt: sql`now()` },
        });
      // Ids Meta no longer keeps are of no use to anyone: the number's expired ones go with each new one.
      await db
        .delete(cloudMediaIds)
        .where(
          ofAccount(
            cloudMediaIds,
            userId,
            and(eq(cloudMediaIds.phoneNumberId, phoneNumberId), lt(cloudMediaIds.uploadedAt, fresh())),
          ),
        );
    },
  };
}
