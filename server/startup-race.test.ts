import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type NodeServer } from '../scripts/launch-server.mjs';
import { signIn } from './testing/http-session';
import { startSourceServer, untilHealthy } from './testing/source-server';

/**
 * Real server processes (the source run with tsx) started at the same moment on one empty database.
 * On PostgreSQL every one of them migrates and creates the administrator, so they take turns under
 * an advisory lock: all start, all answer, and there is one administrator. On the embedded database
 * one process may hold the data directory: one serves and the others refuse to start, cleanly.
 */
const ADMIN = { username: 'admin', password: 'admin-corrida-1' };
const PROCESSES = 3;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

async function storage(): Promise<{ env: Record<string, string>; url?: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-race-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (process.env.TEST_DB !== 'postgres') return { env: { DATA_DIR: dataDir } };
  const db = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_race');
  cleanups.push(() => db.drop());
  // Each process gets a data directory of its own: on PostgreSQL nothing is shared on disk.
  return { env: { DATABASE_URL: db.url }, url: db.url };
}

function launch(env: Record<string, string>, name: string, dataDir: string): Promise<NodeServer> {
  return startSourceServer(name, {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DATA_DIR: dataDir,
    ...env,
  });
}

/** The administrators the server lists, as its administrator sees them over HTTP. */
async function adminsListedBy(base: string): Promise<string[]> {
  const { cookie } = await signIn(base, ADMIN);
  const res = await fetch(`${base}/api/admin/users`, { headers: { cookie, origin: base } });
  expect(res.status).toBe(200);
  const list = (await res.json()) as Array<{ username: string; accountType: string }>;
  return list.filter((u) => u.accountType === 'admin').map((u) => u.username);
}

describe('processes started together on one empty database', () => {
  it('all start and answer, with exactly one administrator (PostgreSQL); on the embedded database one serves and the others refuse', async () => {
    const { env, url } = await storage();
    const shared = env.DATA_DIR;
    const dirs = Array.from({ length: PROCESSES }, (_, i) => {
      if (shared) return shared;
      const dir = mkdtempSync(join(tmpdir(), `disparo-race-${i}-`));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    });
    // Spawned in the same tick: they reach the empty database together.
    const servers = await Promise.all(dirs.map((dir, i) => launch(env, `p${i}`, dir)));
    for (const s of servers) cleanups.push(() => s.stop());
    const up = await Promise.all(servers.map((s) => untilHealthy(s)));
    const report = servers.map((s) => `${s.name}: ${JSON.stringify(s.exitStatus())}\n${s.output()}`).join('\n');

    if (url) {
      expect(up, report).toEqual(Array(PROCESSES).fill(true));
      for (const s of servers) expect(await adminsListedBy(s.url), report).toEqual([ADMIN.username]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const admins = await client.query(`select username from users where account_type = 'admin'`);
        expect(admins.rows).toEqual([{ username: ADMIN.username }]);
        const migrations = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
        const applied = await client.query('select count(distinct hash)::int as n from drizzle.__drizzle_migrations');
        // Each migration ran once, not once per process.
        expect(migrations.rows[0].n).toBe(applied.rows[0].n);
      } finally {
        await client.end();
      }
      return;
    }

    expect(up.filter(Boolean).length, report).toBe(1);
    for (const [i, s] of servers.entries()) {
      if (up[i]) continue;
      expect(s.exitStatus()?.code, report).toBe(1);
      expect(s.output(), report).toContain('is already using DATA_DIR');
    }
    expect(await adminsListedBy(servers[up.indexOf(true)].url)).toEqual([ADMIN.username]);
  }, 180_000);
});
