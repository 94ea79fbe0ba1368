import { count, desc, eq } from 'drizzle-orm';
import { ADMIN_DEAD_JOBS_MAX, type AdminJobsResponse, adminJobsMsg, type JobState } from '../../../contract/admin';
import { acrossAccounts } from '../../db/account-scope';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { jobs, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { JobRunner } from '../../jobs/runner';
import { assertAdmin } from './admin.service';

/** The jobs table at a glance, every account's: counts by name and state, and the latest dead jobs. */
export async function listJobs(db: Db, actor: UserRow): Promise<AdminJobsResponse> {
  assertAdmin(actor);
  const counts = await db
    .select({ name: jobs.name, state: jobs.state, count: count() })
    .from(acrossAccounts(jobs))
    .groupBy(jobs.name, jobs.state)
    .orderBy(jobs.name, jobs.state);
  const dead = await db
    .select({
      id: jobs.id,
      name: jobs.name,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      finishedAt: jobs.finishedAt,
      accountId: jobs.userId,
      accountEmail: users.email,
    })
    .from(acrossAccounts(jobs))
    .leftJoin(users, eq(users.id, jobs.userId))
    .where(eq(jobs.state, 'dead'))
    .orderBy(desc(jobs.finishedAt), desc(jobs.id))
    .limit(ADMIN_DEAD_JOBS_MAX);
  return {
    counts: counts.map((c) => ({ ...c, state: c.state as JobState })),
    dead: dead.map((d) => ({ ...d, finishedAt: d.finishedAt?.toISOString() ?? null })),
  };
}

/** A dead job back in the queue, due now with its attempts reset. */
export async function retryJob(db: Db, runner: JobRunner, actor: UserRow, id: string): Promise<void> {
  assertAdmin(actor);
  if (!(await runner.retry(db, id))) throw new AppError('NOT_FOUND', adminJobsMsg.notDead);
}
