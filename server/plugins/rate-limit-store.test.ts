import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '../../contract/messages';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database, Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { type TestApp, waitFor } from '../testing/test-app';
import { createTestDatabase } from '../testing/test-db';
import { databaseRateLimitStore } from './rate-limit-store';

/**
 * Two server processes on one database: the login and signup limits are counted in
 * `rate_limit_hits`, so a client gets LOGIN_RATE_LIMIT attempts in all, whichever process answers.
 */
const LIMIT = 3;
/** The signup routes allow max(5, LOGIN_RATE_LIMIT) a minute. */
const SIGNUP_LIMIT = 5;

let database: Database;
let dataDir: string;
let apps: TestApp[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-rate-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: String(LIMIT),
  });
  for (const id of ['rate-a', 'rate-b']) {
    const app = (await buildApp({
      config,
      db: database.db,
      serveWeb: false,
      dispatcher: { autoStart: false },
      registry: { id },
    })) as TestApp;
    await app.ready();
    apps.push(app);
  }
});

afterAll(async () => {
  for (const app of apps) await app.close();
  apps = [];
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const post = (app: TestApp, url: string, payload: object, ip: string) =>
  app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: { origin: 'http://localhost' } });

let attempt = 0;
/** A failed sign-in; each under another name, so the growing delay per (address, name) stays out of the way. */
const login = (app: TestApp, ip: string) =>
  post(app, '/api/auth/login', { username: `ninguem${++attempt}`, password: 'errada123' }, ip);
/** An invalid signup: counted by the limit (it runs before validation), answered 400, creates nothing. */
const badSignup = (app: TestApp, ip: string) => post(app, '/api/auth/register', { name: '' }, ip);

async function hitsOf(keyEnd: string): Promise<{ key: string; hits: number }[]> {
  return rowsOf<{ key: string; hits: number }>(
    await database.db.execute(sql`select key, hits from rate_limit_hits where key like ${`%${keyEnd}`} order by key`),
  );
}

describe('rate limits shared by two apps on one database', () => {
  it('limits login attempts alternating between the apps at LOGIN_RATE_LIMIT in total', async () => {
    const ip = '10.7.0.1';
    const codes: number[] = [];
    let last = { message: '' };
    for (let i = 0; i <= LIMIT + 1; i++) {
      const res = await login(apps[i % 2], ip);
      codes.push(res.statusCode);
      last = res.json();
    }
    expect(codes).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    expect(last.message).toBe(msg.auth.rateLimited);
    expect(await hitsOf(`|${ip}`)).toEqual([{ key: `POST /api/auth/login|${ip}`, hits: LIMIT + 2 }]);
    // Another client address has its own count.
    expect((await login(apps[1], '10.7.0.2')).statusCode).toBe(401);
  });

  it('counts concurrent attempts on both apps exactly once each', async () => {
    const ip = '10.7.0.3';
    const answers = await Promise.all(Array.from({ length: LIMIT * 2 }, (_, i) => login(apps[i % 2], ip)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(LIMIT).fill(401), ...Array(LIMIT).fill(429)]);
  });

  it("counts another route's limit separately", async () => {
    const ip = '10.7.0.4';
    for (let i = 0; i <= LIMIT; i++) await login(apps[i % 2], ip);
    expect((await login(apps[0], ip)).statusCode).toBe(429);

    // Sign-in is used up for this address; signup still has its own SIGNUP_LIMIT, shared by both apps.
    const codes: number[] = [];
    let last = { message: '' };
    for (let i = 0; i <= SIGNUP_LIMIT; i++) {
      const res = await badSignup(apps[(i + 1) % 2], ip);
      codes.push(res.statusCode);
      last = res.json();
    }
    expect(codes).toEqual([...Array(SIGNUP_LIMIT).fill(400), 429]);
    expect(last.message).toBe(msg.auth.tooManyRequests);
    expect((await hitsOf(`|${ip}`)).map((r) => [r.key, r.hits])).toEqual([
      [`POST /api/auth/login|${ip}`, LIMIT + 2],
      [`POST /api/auth/register|${ip}`, SIGNUP_LIMIT + 1],
    ]);
  });

  it('starts counting again once the window has ended', async () => {
    const ip = '10.7.0.5';
    for (let i = 0; i < LIMIT; i++) expect((await login(apps[i % 2], ip)).statusCode).toBe(401);
    expect((await login(apps[1], ip)).statusCode).toBe(429);

    // The minute passes (the row's window is moved into the past rather than waited for).
    await database.db.execute(
      sql`update rate_limit_hits set reset_at = now() - interval '1 second' where key = ${`POST /api/auth/login|${ip}`}`,
    );
    const codes: number[] = [];
    for (let i = 0; i <= LIMIT; i++) codes.push((await login(apps[i % 2], ip)).statusCode);
    expect(codes).toEqual([...Array(LIMIT).fill(401), 429]);
    expect(await hitsOf(`|${ip}`)).toEqual([{ key: `POST /api/auth/login|${ip}`, hits: LIMIT + 1 }]);
    const [window] = rowsOf<{ seconds: number }>(
      await database.db.execute(
        sql`select extract(epoch from (reset_at - now()))::float8 as seconds from rate_limit_hits where key = ${`POST /api/auth/login|${ip}`}`,
      ),
    );
    expect(window.seconds).toBeGreaterThan(0);
    expect(window.seconds).toBeLessThanOrEqual(60);
  });
});

/** A logger that keeps its warnings. */
function recordingLog(): { log: FastifyBaseLogger; warnings: string[] } {
  const warnings: string[] = [];
  const log = {
    level: 'warn',
    warn: (_obj: unknown, message?: string) => warnings.push(message ?? ''),
    info: () => {},
    error: () => {},
    debug: () => {},
    trace: () => {},
    fatal: () => {},
    silent: () => {},
    child: () => log,
  } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

type StoreResult = { current: number; ttl: number };

describe('the database rate-limit store', () => {
  it('deletes expired rows now and then, keeping live ones', async () => {
    await database.db.execute(sql`
      insert into rate_limit_hits (key, hits, reset_at) values
        ('POST /old|10.8.0.1', 7, now() - interval '5 minutes'),
        ('POST /live|10.8.0.1', 2, now() + interval '5 minutes')`);
    const Store = databaseRateLimitStore(database.db, recordingLog().log, { sweepEveryMs: 0 });
    const store = new Store({}).child({ routeInfo: { method: 'POST', url: '/sweep' } } as never);
    const result = await new Promise<StoreResult | undefined>((resolve, reject) =>
      store.incr('10.8.0.1', (err, res) => (err ? reject(err) : resolve(res)), 60_000, 10),
    );
    expect(result).toEqual({ current: 1, ttl: 60_000 });
    const keys = await waitFor(
      async () => (await hitsOf('|10.8.0.1')).map((r) => r.key),
      (k) => !k.includes('POST /old|10.8.0.1'),
    );
    expect(keys).toEqual(['POST /live|10.8.0.1', 'POST /sweep|10.8.0.1']);
  });

  it('lets requests through with a warning when the database fails, instead of a 500', async () => {
    const failing = { execute: () => Promise.reject(new Error('connection terminated')) } as unknown as Db;
    const { log, warnings } = recordingLog();
    const app = Fastify();
    try {
      await app.register(rateLimit, { global: false, store: databaseRateLimitStore(failing, log) });
      app.post('/try', { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } }, async () => ({ ok: true }));
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await app.inject({ method: 'POST', url: '/try' })).statusCode);
      expect(codes).toEqual([200, 200, 200]);
      // One warning per minute at most, not one per request.
      expect(warnings).toEqual(['rate limit store: counting a hit failed; requests are let through uncounted']);
    } finally {
      await app.close();
    }
  });
});
