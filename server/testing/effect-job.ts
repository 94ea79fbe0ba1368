import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from '../jobs/define';

/**
 * The job of server/jobs/processes.test.ts, as `processName` runs it: it notes each run, holds for
 * `holdMs`, then writes its effect once per key, so a second run of the same job writes nothing
 * (a handler is safe to run twice: a lease can lapse).
 */
export const effectJob = (processName: string, onStart: (key: string) => void = () => {}) =>
  defineJob({
    name: 'test.effect',
    payload: z.object({ key: z.string(), holdMs: z.number().int().min(0) }),
    maxAttempts: 5,
    handler: async ({ key, holdMs }, ctx) => {
      await ctx.db.execute(
        sql`insert into test_job_runs (key, process, attempt) values (${key}, ${processName}, ${ctx.attempt})`,
      );
      onStart(key);
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      await ctx.db.execute(
        sql`insert into test_job_effects (key, process) values (${key}, ${processName}) on conflict (key) do nothing`,
      );
    },
  });
