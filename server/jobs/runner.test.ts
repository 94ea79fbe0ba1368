import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../db/client';
import { rowsOf } from '../db/rows';
import { createTestDatabase } from '../testing/test-db';
import { pruneFinishedJobs } from './chores';
import { defineJob, exponentialBackoff, type JobContext, type JobDefinition } from './define';
import { choreKey, JobRunner, type JobRunnerOptions } from './runner';

let database: Database;
const runners: JobRunner[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});
afterAll(() => database.close());

const db = () => database.db;
let serial = 0;
/** A job name of this test alone (the file's tests share one database). */
const uniqueName = (what: string) => `test.${what}.${++serial}`;
const runner = (opts: Partial<JobRunnerOptions> = {}) => {
  const r = new JobRunner({ db: db(), processId: `p-${++serial}`, pollMs: 20, ...opts });
  runners.push(r);
  return r;
};
const rowsNamed = async (name: string) =>
  rowsOf<{ id: string; state: string; attempts: number; last_error: string | null; run_at: Date; dedupe_key: string }>(
    await db().execute(sql`select * from jobs where name = ${name} order by created_at`),
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('job runner', () => {
  it('runs an enqueued job once with its checked payload, and keeps it done', async () => {
    const seen: Array<{ n: number; attempt: number }> = [];
    const job = defineJob({
      name: uniqueName('echo'),
      payload: z.object({ n: z.number() }),
      handler: async ({ n }, ctx: JobContext) => {
        seen.push({ n, attempt: ctx.attempt });
      },
    });
    const r = runner();
    r.register(job);
    await r.start();
    expect(await r.enqueue(db(), job, { n: 7 })).toMatch(/^[0-9a-f-]{36}$/);
    await r.idle();
    expect(seen).toEqual([{ n: 7, attempt: 1 }]);
    expect((await rowsNamed(job.name)).map((j) => j.state)).toEqual(['done']);
    // A payload its schema refuses is never written.
    expect(() => r.enqueue(db(), job, { n: 'sete' } as never)).rejects.toThrow();
    await sleep(10);
    expect(await rowsNamed(job.name)).toHaveLength(1);
  });

  it('writes no job when the enqueuing transaction rolls back', async () => {
    const job = defineJob({ name: uniqueName('rollback'), payload: z.object({}), handler: async () => {} });
    const r = runner();
    r.register(job);
    await expect(
      db().transaction(async (tx) => {
        await r.enqueue(tx, job, {});
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await rowsNamed(job.name)).toHaveLength(0);
    await db().transaction(async (tx) => {
      await r.enqueue(tx, job, {});
    });
    expect(await rowsNamed(job.name)).toHaveLength(1);
  });

  it('keeps one unfinished job per dedupe key, and cancel removes a queued one', async () => {
    const job = defineJob({ name: uniqueName('dedupe'), payload: z.object({}), handler: async () => {} });
    const r = runner();
    r.register(job);
    const key = `k-${serial}`;
    expect(await r.enqueue(db(), job, {}, { dedupeKey: key, delayMs: 60_000 })).not.toBeNull();
    expect(await r.enqueue(db(), job, {}, { dedupeKey: key })).toBeNull();
    expect(await r.status(db(), key)).toEqual({ state: 'queued', lastError: null });
    expect(await r.cancel(db(), key)).toBe(true);
    expect(await r.cancel(db(), key)).toBe(false);
    expect(await r.status(db(), key)).toBeNull();
    // Once finished, the key is free again.
    await r.start();
    await r.enqueue(db(), job, {}, { dedupeKey: key });
    await r.idle();
    expect(await r.enqueue(db(), job, {}, { dedupeKey: key, delayMs: 60_000 })).not.toBeNull();
    expect((await rowsNamed(job.name)).map((j) => j.state)).toEqual(['done', 'queued']);
    expect(await r.takeDone(db(), key)).toBe(1);
  });

  it('leaves a job that is not due yet, and runs it when it is', async () => {
    let ran = 0;
    const job = defineJob({
      name: uniqueName('later'),
      payload: z.object({}),
      handler: async () => {
        ran++;
      },
    });
    const r = runner();
    r.register(job);
    await r.start();
    await r.enqueue(db(), job, {}, { delayMs: 150 });
    await r.idle();
    expect(ran).toBe(0);
    await sleep(250);
    await r.idle();
    expect(ran).toBe(1);
  });

  it('retries a failing job after its backoff and keeps it dead with the error once it used its attempts', async () => {
    const attempts: number[] = [];
    const job = defineJob({
      name: uniqueName('failing'),
      payload: z.object({}),
      maxAttempts: 3,
      backoff: () => 0,
      handler: async (_p, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error(`falhou ${ctx.attempt}`);
      },
    });
    const r = runner();
    r.register(job);
    await r.start();
    await r.enqueue(db(), job, {});
    await r.idle();
    expect(attempts).toEqual([1, 2, 3]);
    const [row] = await rowsNamed(job.name);
    expect(row).toMatchObject({ state: 'dead', attempts: 3, last_error: 'falhou 3' });

    // A real backoff puts the next run in the future.
    const slow = defineJob({
      name: uniqueName('backoff'),
      payload: z.object({}),
      maxAttempts: 2,
      backoff: () => 60_000,
      handler: async () => {
        throw new Error('fora do ar');
      },
    });
    r.register(slow);
    await r.enqueue(db(), slow, {});
    await r.idle();
    const [later] = await rowsNamed(slow.name);
    expect(later).toMatchObject({ state: 'queued', attempts: 1, last_error: 'fora do ar' });
    expect(new Date(later.run_at).getTime() - Date.now()).toBeGreaterThan(50_000);
  });

  it('draws the exponential backoff in the upper half of a doubling, capped', () => {
    const low = exponentialBackoff(1_000, 8_000, () => 0);
    const high = exponentialBackoff(1_000, 8_000, () => 1);
    expect([1, 2, 3, 4, 5].map(low)).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
    expect([1, 2, 3, 4, 5].map(high)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it('kills a job whose stored payload no longer parses, without retrying it', async () => {
    let ran = 0;
    const job = defineJob({
      name: uniqueName('schema'),
      payload: z.object({ id: z.string() }),
      handler: async () => {
        ran++;
      },
    });
    await db().execute(sql`insert into jobs (name, payload, max_attempts) values (${job.name}, '{"id": 1}', 5)`);
    const r = runner();
    r.register(job);
    await r.start();
    await r.idle();
    expect(ran).toBe(0);
    const [row] = await rowsNamed(job.name);
    expect(row.state).toBe('dead');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toContain('payload inválido');
  });

  it('reclaims a job whose holder’s lease lapsed, and kills one that had used its attempts', async () => {
    const ran: string[] = [];
    const job = defineJob({
      name: uniqueName('lapsed'),
      payload: z.object({ tag: z.string() }),
      maxAttempts: 2,
      handler: async ({ tag }) => {
        ran.push(tag);
      },
    });
    // A crashed process's claims: one lapsed with an attempt left, one lapsed on its last, one still held.
    await db().execute(sql`
      insert into jobs (name, payload, state, attempts, max_attempts, claimed_by, lease_until) values
        (${job.name}, '{"tag":"lapsed"}', 'running', 1, 2, 'crashed', now() - interval '1 second'),
        (${job.name}, '{"tag":"last"}', 'running', 2, 2, 'crashed', now() - interval '1 second'),
        (${job.name}, '{"tag":"held"}', 'running', 1, 2, 'alive', now() + interval '1 minute')`);
    const r = runner();
    r.register(job);
    await r.start();
    await r.idle();
    expect(ran).toEqual(['lapsed']);
    const rows = rowsOf<{ tag: string; state: string; attempts: number; claimed_by: string | null }>(
      await db().execute(
        sql`select payload->>'tag' as tag, state, attempts, claimed_by from jobs where name = ${job.name} order by (payload->>'tag') collate "C"`,
      ),
    );
    expect(rows).toEqual([
      { tag: 'held', state: 'running', attempts: 1, claimed_by: 'alive' },
      { tag: 'lapsed', state: 'done', attempts: 2, claimed_by: null },
      { tag: 'last', state: 'dead', attempts: 2, claimed_by: null },
    ]);
  });

  it('renews the lease of a long job, and on stop releases one that does not finish in time', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const job = defineJob({
      name: uniqueName('long'),
      payload: z.object({}),
      handler: async (_p, ctx) => {
        started();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        throw ctx.signal.reason;
      },
    });
    const r = runner({ leaseMs: 300, stopGraceMs: 1_000 });
    r.register(job);
    await r.start();
    await r.enqueue(db(), job, {});
    await running;
    await sleep(500);
    // Still this process's, past the first lease.
    const [held] = rowsOf<{ state: string; live: boolean }>(
      await db().execute(sql`select state, lease_until > now() as live from jobs where name = ${job.name}`),
    );
    expect(held).toEqual({ state: 'running', live: true });
    await r.stop();
    const [released] = await rowsNamed(job.name);
    expect(released).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('keeps exactly one queued row per recurring chore and enqueues the next run when one finishes', async () => {
    let runs = 0;
    const chore = defineJob({
      name: uniqueName('chore'),
      payload: z.object({}),
      every: 40,
      handler: async () => {
        runs++;
      },
    });
    const a = runner();
    const b = runner();
    a.register(chore);
    b.register(chore);
    await Promise.all([a.start(), b.start()]);
    await sleep(400);
    await Promise.all([a.stop(), b.stop()]);
    expect(runs).toBeGreaterThanOrEqual(3);
    const rows = await rowsNamed(chore.name);
    expect(rows.filter((j) => j.state === 'queued' || j.state === 'running')).toHaveLength(1);
    expect(rows.filter((j) => j.state === 'done')).toHaveLength(runs);
    expect(new Set(rows.map((j) => j.dedupe_key))).toEqual(new Set([choreKey(chore.name)]));
  });

  it('never runs one job twice with two runners on the same database', async () => {
    const runs = new Map<number, number>();
    const job = defineJob({
      name: uniqueName('shared'),
      payload: z.object({ n: z.number() }),
      handler: async ({ n }) => {
        runs.set(n, (runs.get(n) ?? 0) + 1);
        await sleep(Math.random() * 5);
      },
    });
    const a = runner({ concurrency: 3 });
    const b = runner({ concurrency: 3 });
    a.register(job);
    b.register(job);
    const N = 60;
    await db().execute(sql`
      insert into jobs (name, payload, max_attempts)
      select ${job.name}, jsonb_build_object('n', i), 1 from generate_series(1, ${N}) as i`);
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.idle(), b.idle()]);
    expect(runs.size).toBe(N);
    expect([...runs.values()].every((v) => v === 1)).toBe(true);
    const states = await rowsNamed(job.name);
    expect(states.every((j) => j.state === 'done' && j.attempts === 1)).toBe(true);
  });
});

describe('pruning finished jobs', () => {
  it('deletes done jobs after a week and dead ones after a month, never unfinished ones', async () => {
    const name = uniqueName('old');
    await db().execute(sql`
      insert into jobs (name, payload, state, max_attempts, finished_at, last_error) values
        (${name}, '{"k":"done-old"}', 'done', 1, now() - interval '8 days', null),
        (${name}, '{"k":"done-new"}', 'done', 1, now() - interval '6 days', null),
        (${name}, '{"k":"dead-old"}', 'dead', 1, now() - interval '31 days', 'x'),
        (${name}, '{"k":"dead-new"}', 'dead', 1, now() - interval '8 days', 'x'),
        (${name}, '{"k":"queued"}', 'queued', 1, null, null)`);
    expect(await pruneFinishedJobs(db())).toBeGreaterThanOrEqual(2);
    const left = rowsOf<{ k: string }>(
      await db().execute(
        sql`select payload->>'k' as k from jobs where name = ${name} order by (payload->>'k') collate "C"`,
      ),
    );
    expect(left.map((r) => r.k)).toEqual(['dead-new', 'done-new', 'queued']);
  });
});

describe('cancelling a running job', () => {
  it('tells its handler, which then acts on nothing, and its end writes nothing back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const seen: boolean[] = [];
    const job = defineJob({
      name: uniqueName('cancelled'),
      payload: z.object({}),
      handler: async (_p, ctx) => {
        started();
        await gate;
        seen.push(await ctx.cancelled());
      },
    });
    const r = runner();
    r.register(job);
    await r.start();
    const key = `c-${serial}`;
    await r.enqueue(db(), job, {}, { dedupeKey: key });
    await running;
    expect(await r.cancel(db(), key)).toBe(true);
    release();
    await r.idle();
    expect(seen).toEqual([true]);
    expect(await rowsNamed(job.name)).toHaveLength(0);
  });
});

describe('job runner: chains, retries and polls', () => {
  it('chains a follow-up in the transaction that finishes a run, under the same dedupe key', async () => {
    const name = uniqueName('chain');
    const key = `${name}:key`;
    const seen: number[] = [];
    const job: JobDefinition<{ n: number }> = defineJob({
      name,
      payload: z.object({ n: z.number() }),
      maxAttempts: 1,
      handler: async ({ n }, ctx) => {
        seen.push(n);
        ctx.discard();
        if (n === 3) throw new Error('the last link fails');
        ctx.followUp(job, { n: n + 1 }, { dedupeKey: key });
      },
    });
    const r = runner();
    r.register(job);
    await r.start();
    await r.enqueue(db(), job, { n: 1 }, { dedupeKey: key });
    await r.idle();
    expect(seen).toEqual([1, 2, 3]);
    // A failed run enqueues nothing: its one row is the dead third link.
    expect((await rowsNamed(name)).map((row) => [row.state, row.dedupe_key])).toEqual([['dead', key]]);
  });

  it('retries a dead job: queued again with its attempts reset, then run; nothing else is retried', async () => {
    const name = uniqueName('retry');
    let failing = true;
    const job = defineJob({
      name,
      payload: z.object({}),
      maxAttempts: 1,
      handler: async () => {
        if (failing) throw new Error('down');
      },
    });
    const r = runner();
    r.register(job);
    await r.start();
    const id = (await r.enqueue(db(), job, {}, { dedupeKey: `${name}:a` }))!;
    await r.idle();
    expect((await rowsNamed(name)).map((row) => row.state)).toEqual(['dead']);
    // An unfinished job holding its key does the same work: the dead one stays dead.
    await r.stop();
    const holder = (await r.enqueue(db(), job, {}, { dedupeKey: `${name}:a` }))!;
    expect(await r.retry(db(), id)).toBe(false);
    await r.cancel(db(), `${name}:a`);
    expect(holder).not.toBe(id);
    await r.start();
    failing = false;
    expect(await r.retry(db(), id)).toBe(true);
    await r.idle();
    const [row] = await rowsNamed(name);
    expect([row.id, row.state, row.attempts]).toEqual([id, 'done', 1]);
    expect(await r.retry(db(), id)).toBe(false);
    expect(await r.retry(db(), '00000000-0000-4000-8000-000000000000')).toBe(false);
  });

  it('retries one of two dead jobs of a key retried at once, and refuses the other', async () => {
    const name = uniqueName('retry-race');
    const key = `${name}:a`;
    const ids = rowsOf<{ id: string }>(
      await db().execute(sql`
        insert into jobs (name, payload, state, attempts, max_attempts, dedupe_key, finished_at)
        values (${name}, '{}', 'dead', 1, 1, ${key}, now()), (${name}, '{}', 'dead', 1, 1, ${key}, now())
        returning id`),
    ).map((row) => row.id);
    const r = runner();
    // The second retry starts while the first one's transaction is open (on PostgreSQL it waits on
    // the key's unique index, then finds it taken).
    let second: Promise<boolean> | undefined;
    await db().transaction(async (tx) => {
      expect(await r.retry(tx, ids[0]!)).toBe(true);
      second = r.retry(db(), ids[1]!);
      await sleep(200);
    });
    expect(await second).toBe(false);
    expect((await rowsNamed(name)).map((row) => row.state).sort()).toEqual(['dead', 'queued']);
  });

  it('polls with one statement: the lapsed leases are reclaimed by the claim itself', async () => {
    const statements: string[] = [];
    const counting = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver);
        return (query: SQL) => {
          statements.push(new PgDialect().sqlToQuery(query).sql);
          return target.execute(query);
        };
      },
    });
    const name = uniqueName('poll');
    const job = defineJob({ name, payload: z.object({}), handler: async () => {} });
    const r = runner({ db: counting });
    r.register(job);
    await r.start();
    await sleep(300);
    await r.stop();
    expect(statements.length).toBeGreaterThanOrEqual(2);
    for (const statement of statements) {
      expect(statement).toContain('lapsed_dead');
      expect(statement).toContain('for update skip locked');
    }
  });
});
