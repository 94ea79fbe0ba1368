import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type BuildAppOptions, buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import type { UserRow } from '../db/schema';
import { users } from '../db/schema';
import type { AppDeps } from '../deps';
import { loggerOptions } from '../logger';
import { hashPassword } from '../modules/auth';
import { updateAccountSettings } from '../modules/settings';
import type { Driver } from '../whatsapp/driver';
import { multipart } from './multipart';
import { createTestDatabase } from './test-db';

export type TestApp = FastifyInstance & { deps: AppDeps };

export interface TestContext {
  app: TestApp;
  database: Database;
  close(): Promise<void>;
}

/** The real app on a real, migrated database, configured as a local run would be. */
export async function createTestApp(
  env: Record<string, string> = {},
  sessionCacheMs?: number,
  options: Pick<
    BuildAppOptions,
    'drivers' | 'simulatorTimings' | 'verification' | 'dispatcher' | 'ai' | 'chatbotClock'
  > & {
    /** A database the test prepared itself (a migration test: migrated up to a point, old rows written); closed with the app. */
    database?: Database;
  } = {},
): Promise<TestContext> {
  const { database: own, ...buildOptions } = options;
  const database = own ?? (await createTestDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    ...env,
  });
  const app = await buildApp({ config, db: database.db, serveWeb: false, sessionCacheMs, ...buildOptions });
  await app.ready();
  sendSameOriginByDefault(app);
  return closingAll(app, database, dataDir);
}

/** The context of an app that owns its database and data folder: closing it drops all three. */
function closingAll(app: TestApp, database: Database, dataDir: string): TestContext {
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app with its log at the most verbose level, each line pushed to `lines`: what any part of the
 * server would ever write, for tests of what the log must never hold. `env` is the environment as
 * given (no test defaults but its own data folder); injected requests carry no Origin of their own.
 */
export async function createTracedTestApp(env: Record<string, string>, lines: string[]): Promise<TestContext> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-traced-'));
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = (await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, ...env }),
    db: database.db,
    serveWeb: false,
    logger: { ...loggerOptions('trace'), stream },
  })) as TestApp;
  await app.ready();
  return closingAll(app, database, dataDir);
}

/**
 * The app on the simulator driver with a fast clock: QR, receipts and pacing in milliseconds, for
 * tests that send campaigns end to end. `dispatcher` overrides the send loop's tick and time scale
 * (`timeScale: undefined` for real pacing).
 */
export function createSimulatorTestApp(
  timings: Partial<{ qrMs: number; detectMs: number; deliveredMs: number; readMs: number }> = {},
  dispatcher: NonNullable<BuildAppOptions['dispatcher']> = {},
): Promise<TestContext> {
  return createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40, ...timings },
    dispatcher: { tickMs: 20, timeScale: 0.001, ...dispatcher },
  });
}

/**
 * A browser marks every request with the page's Origin; injected requests get the same default
 * (inject's Host is localhost:80), so a cookie-carrying write is not taken for a forged one. Tests
 * of the cross-site guard set their own headers.
 */
function sendSameOriginByDefault(app: TestApp): void {
  const inject = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const withOrigin = (opts: InjectOptions | string) => {
    const o: InjectOptions = typeof opts === 'string' ? { url: opts } : opts;
    const headers: Record<string, unknown> = { ...o.headers };
    const own = Object.keys(headers).map((h) => h.toLowerCase());
    if (!own.includes('origin') && !own.includes('sec-fetch-site')) headers.origin = 'http://localhost';
    return inject({ ...o, headers: headers as InjectOptions['headers'] });
  };
  app.inject = withOrigin as TestApp['inject'];
}

export const TEST_PASSWORD = 'senha-de-teste-1';
let testHash: Promise<string> | undefined;

let seq = 0;
/** Inserts an account directly (all share TEST_PASSWORD, hashed once per test file); `ctx` needs only its database. */
export async function createUser(
  ctx: Pick<TestContext, 'database'>,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  testHash ??= hashPassword(TEST_PASSWORD);
  const n = `${process.pid}${Date.now().toString(36)}${seq++}`;
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      name: `Cliente ${n}`,
      email: `cliente${n}@example.com`,
      username: `cliente${n}`,
      whatsappNumber: '+55 11 98888-7777',
      passwordHash: await testHash,
      accountType: 'active',
      planType: 'basic',
      isActive: true,
      ...overrides,
    })
    .returning();
  return row;
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'disparo_session');
  if (!cookie) throw new Error(`no session cookie in answer ${res.statusCode}: ${res.body}`);
  return `disparo_session=${cookie.value}`;
}

/** Logs a user in through the API and returns the Cookie header value. */
export async function loginAs(
  ctx: TestContext,
  user: Pick<UserRow, 'username'>,
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: user.username, password },
  });
  return sessionCookie(res);
}

/** A new active customer account, signed in: its row and its session cookie. */
export async function newCustomer(
  ctx: TestContext,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<{ user: UserRow; cookie: string }> {
  const user = await createUser(ctx, overrides);
  return { user, cookie: await loginAs(ctx, user) };
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A new signed-in customer (`newCustomer`) with `call`: its API calls, a JSON body when `payload` is given. */
export async function newCustomerWithCalls(ctx: TestContext, overrides: Partial<typeof users.$inferInsert> = {}) {
  const { user, cookie } = await newCustomer(ctx, overrides);
  const call = (method: ApiMethod, url: string, payload?: unknown) => apiCall(ctx, method, url, { cookie, payload });
  return { user, cookie, call };
}

/**
 * One API call as the signed-in browser makes it: a JSON body when `payload` is given, or one file
 * as a form upload (`multipart/form-data`, field `file` unless `file.field` says) when `file` is.
 */
export function apiCall(
  ctx: TestContext,
  method: ApiMethod,
  url: string,
  opts: {
    cookie?: string;
    payload?: unknown;
    file?: { name: string; data: Buffer | string; field?: string };
    /** The client address the server sees (127.0.0.1 unless given): limits counted per client. */
    remoteAddress?: string;
  } = {},
): Promise<LightMyRequestResponse> {
  const cookie = opts.cookie ? { cookie: opts.cookie } : {};
  const from = opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {};
  if (opts.file) {
    const form = multipart(opts.file.name, opts.file.data, opts.file.field);
    return ctx.app.inject({ method, url, payload: form.payload, headers: { ...form.headers, ...cookie }, ...from });
  }
  return ctx.app.inject({
    method,
    url,
    headers: cookie,
    ...from,
    ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
  });
}

/**
 * Polls `fn` until `ok` accepts its value (every `everyMs`, at most `ms`); answers that value. Tests
 * whose engine shares the embedded database with these reads poll less often (100 ms).
 */
export async function waitFor<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 3000, everyMs = 15): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls `check` every 25 ms; answers how long it took to hold, or throws after `ms`. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Rows read again until their statuses stop moving: receipts of the last messages may still arrive
 * after a campaign completes (in batches per account), so figures are compared once they settle.
 */
export async function whenStatusesSettle<T extends { status: string }>(
  ctx: TestContext,
  read: () => Promise<T[]>,
  ms = 5000,
): Promise<T[]> {
  const statuses = (rows: T[]) =>
    rows
      .map((r) => r.status)
      .sort()
      .join();
  let rows = await read();
  for (const end = Date.now() + ms; Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 150));
    await ctx.app.deps.connections.receiptsSettled();
    const again = await read();
    const settled = statuses(again) === statuses(rows);
    rows = again;
    if (settled) break;
  }
  return rows;
}

/** Connects the account's simulated number (the app runs with WHATSAPP_DRIVER=simulator) and answers its driver once connected. */
export async function connectSimulator(ctx: TestContext, userId: string, cookie: string): Promise<Driver> {
  await apiCall(ctx, 'POST', '/api/whatsapp/connect', { cookie });
  await waitFor(
    async () => (await apiCall(ctx, 'GET', '/api/whatsapp-session', { cookie })).json() as { isConnected: boolean },
    (s) => s.isConnected,
  );
  const number = await ctx.app.deps.connections.directory.primary(userId, 'personal');
  const driver = number && ctx.app.deps.connections.personalDriver(number.id);
  if (!driver) throw new Error('no driver');
  return driver;
}

/** Changes an account's settings directly (tests of the engines, which may not import the modules). */
export function setAccountSettings(
  ctx: TestContext,
  userId: string,
  patch: Parameters<typeof updateAccountSettings>[2],
): ReturnType<typeof updateAccountSettings> {
  return updateAccountSettings(ctx.database.db, userId, patch);
}
