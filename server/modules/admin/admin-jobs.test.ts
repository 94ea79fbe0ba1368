import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminJobsMsg } from '../../../contract/admin';
import { rowsOf } from '../../db/rows';
import { defineJob } from '../../jobs/define';
import { accountPerFile, appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, newCustomer, waitFor } from '../../testing/test-app';

const ctx = appPerFile();
const admin = accountPerFile(ctx, { accountType: 'admin', planType: 'admin' });

const call = (method: ApiMethod, url: string, cookie = admin.cookie) => apiCall(ctx, method, url, { cookie });

/** Fails until told otherwise, once per run: with one attempt, its first failure is dead. */
let failing = true;
const runs: string[] = [];
const flaky = defineJob({
  name: 'test.flaky',
  payload: z.object({ label: z.string() }),
  maxAttempts: 1,
  handler: async ({ label }) => {
    runs.push(label);
    if (failing) throw new Error(`falhou: ${label}`);
  },
});

const stateOf = async (id: string) =>
  rowsOf<{ state: string; attempts: number }>(
    await ctx.database.db.execute(sql`select state, attempts from jobs where id = ${id}`),
  )[0];

describe('admin jobs', () => {
  it('is the administrator’s alone', async () => {
    const { cookie } = await newCustomer(ctx);
    expect((await call('GET', '/api/admin/jobs', cookie)).statusCode).toBe(403);
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await call('POST', `/api/admin/jobs/${id}/retry`, cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/jobs')).statusCode).toBe(200);
  });

  it('counts jobs by name and state, lists the dead ones with their account, and a retry runs one again', async () => {
    const { user } = await newCustomer(ctx);
    const jobs = ctx.app.deps.jobs;
    jobs.register(flaky);
    const id = (await jobs.enqueue(ctx.database.db, flaky, { label: 'a' }, { accountId: user.id }))!;
    await waitFor(
      () => stateOf(id),
      (row) => row?.state === 'dead',
      5_000,
      20,
    );

    const listed = (await call('GET', '/api/admin/jobs')).json();
    expect(listed.counts).toContainEqual({ name: 'test.flaky', state: 'dead', count: 1 });
    expect(listed.dead[0]).toMatchObject({
      id,
      name: 'test.flaky',
      attempts: 1,
      lastError: 'falhou: a',
      accountId: user.id,
      accountEmail: user.email,
    });
    expect(typeof listed.dead[0].finishedAt).toBe('string');

    failing = false;
    const retried = await call('POST', `/api/admin/jobs/${id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ success: true, message: adminJobsMsg.retried });
    const done = await waitFor(
      () => stateOf(id),
      (row) => row?.state === 'done',
      5_000,
      20,
    );
    expect(done).toEqual({ state: 'done', attempts: 1 });
    expect(runs).toEqual(['a', 'a']);

    // Not dead any more, or not there at all: nothing to retry.
    const again = await call('POST', `/api/admin/jobs/${id}/retry`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(adminJobsMsg.notDead);
    expect((await call('POST', '/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry')).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/jobs')).json().dead).toEqual([]);
  });
});
