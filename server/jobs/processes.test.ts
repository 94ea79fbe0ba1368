import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../db/client';
import { rowsOf } from '../db/rows';
import { effectJob } from '../testing/effect-job';
import { createTestPostgres } from '../testing/test-db';
import { JobRunner } from './runner';

/**
 * Jobs survive the process that held them, with real processes on one PostgreSQL (the embedded
 * database is one process by design): a worker killed with SIGKILL in the middle of a job leaves
 * it to the next process once its lease lapses, and two live workers never run one job twice.
 */
const root = join(__dirname, '..', '..');
const job = effectJob('test');

let created: { url: string; drop: () => Promise<void> };
let database: Database;
let enqueuer: JobRunner;
const workers: ChildProcess[] = [];

/** Starts a worker and resolves once it takes work; `lines` collects what it prints. */
function worker(name: string, lines: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/job-worker.ts', created.url, name], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${lines.join('\n')}`)), 30_000);
    const hear = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        if (line === 'ready') {
          clearTimeout(timer);
          resolve(child);
        }
      }
    };
    child.stdout.on('data', hear);
    child.stderr.on('data', hear);
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${lines.join('\n')}`)));
  });
}

async function until<T>(ms: number, read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (holds(value) || Date.now() - start > ms) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const runsOf = async (key: string) =>
  rowsOf<{ process: string; attempt: number }>(
    await database.db.execute(sql`select process, attempt from test_job_runs where key = ${key} order by attempt`),
  );
const effects = async (prefix: string) =>
  rowsOf<{ key: string; process: string }>(
    await database.db.execute(sql`select key, process from test_job_effects where key like ${`${prefix}%`}`),
  );
const stateOf = async (key: string) =>
  rowsOf<{ state: string }>(
    await database.db.execute(sql`select state from jobs where name = 'test.effect' and payload->>'key' = ${key}`),
  );

beforeAll(async () => {
  created = await createTestPostgres();
  database = openPostgres(created.url, 3);
  await database.db.execute(
    sql`create table test_job_runs (key text not null, process text not null, attempt int not null)`,
  );
  await database.db.execute(sql`create table test_job_effects (key text primary key, process text not null)`);
  enqueuer = new JobRunner({ db: database.db, processId: 'enqueuer' });
  enqueuer.register(job);
}, 60_000);

afterAll(async () => {
  for (const child of workers) if (child.exitCode === null) child.kill('SIGKILL');
  await database?.close();
  await created?.drop();
}, 60_000);

describe('jobs across real processes', () => {
  it('a job whose process is killed midway runs again on the next process, and its effect happens once', async () => {
    const aSaid: string[] = [];
    const a = await worker('a', aSaid);
    await enqueuer.enqueue(database.db, job, { key: 'killed-1', holdMs: 3_000 });
    await until(15_000, async () => aSaid.includes('started killed-1'), Boolean);
    expect(aSaid).toContain('started killed-1');
    a.kill('SIGKILL');
    await new Promise((r) => a.once('exit', r));

    await worker('b');
    const state = await until(
      20_000,
      () => stateOf('killed-1'),
      (rows) => rows[0]?.state === 'done',
    );
    expect(state).toEqual([{ state: 'done' }]);
    expect(await runsOf('killed-1')).toEqual([
      { process: 'a', attempt: 1 },
      { process: 'b', attempt: 2 },
    ]);
    expect(await effects('killed-')).toEqual([{ key: 'killed-1', process: 'b' }]);
  }, 90_000);

  it('two live processes share twenty jobs and run each exactly once', async () => {
    await worker('c');
    for (let i = 0; i < 20; i++) await enqueuer.enqueue(database.db, job, { key: `shared-${i}`, holdMs: 50 });
    const done = await until(
      30_000,
      () => effects('shared-'),
      (rows) => rows.length === 20,
    );
    expect(done).toHaveLength(20);
    const runs = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from test_job_runs where key like 'shared-%'`),
    );
    expect(runs[0]?.n).toBe(20);
  }, 60_000);
});
