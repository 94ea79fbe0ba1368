import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { defineJob } from './define';

/** Finished jobs are kept this long (the administrator sees them counted), dead ones longer. */
const KEEP_DONE = '7 days';
const KEEP_DEAD = '30 days';

/** Deletes the jobs table's old finished rows: answers how many. */
export async function pruneFinishedJobs(db: Db): Promise<number> {
  return rowsOf(
    await db.execute(sql`
      delete from jobs
      where (state = 'done' and finished_at < now() - ${KEEP_DONE}::interval)
         or (state = 'dead' and finished_at < now() - ${KEEP_DEAD}::interval)
      returning id`),
  ).length;
}

/** The jobs table's own chore: hourly, one process at a time. */
export const pruneJobsChore = defineJob({
  name: 'jobs.prune',
  payload: z.object({}),
  every: 3_600_000,
  maxAttempts: 3,
  handler: async (_payload, { db }) => {
    await pruneFinishedJobs(db);
  },
});
