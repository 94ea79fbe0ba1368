import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { msg } from '../../contract/messages';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type Database, openPglite, openPostgres } from '../db/client';
import { rowsOf } from '../db/rows';
import { campaignRecipients, contacts, whatsappInboundMessages } from '../db/schema';
import { signIn } from '../testing/http-session';
import { type ApiAnswer, apiFetch, startCampaign, untilCampaign } from '../testing/raw-http';
import {
  createUser,
  setAccountSettings,
  TEST_PASSWORD,
  type TestApp,
  type TestContext,
  waitFor,
} from '../testing/test-app';
import { createTestDatabase } from '../testing/test-db';
import type { SimulatorDriver } from '../whatsapp/simulator/simulator-driver';

/**
 * The database going away for a moment while the server answers requests and sends a campaign.
 * On PostgreSQL the server reaches its own test database through a TCP proxy that resets every
 * connection and refuses new ones for a second and a half (the shared server itself is never
 * touched); on the embedded database, which has no connection to lose, every query fails for as
 * long. The server keeps running, answers in Portuguese meanwhile, recovers without a restart, and
 * the campaign finishes with nothing lost and nothing sent twice.
 */
const OUTAGE_MS = 1500;
const RECIPIENTS = 30;

/** A TCP proxy to the database server that can drop every connection and refuse new ones. */
class DroppingProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => {
      if (this.refusing) {
        client.resetAndDestroy();
        return;
      }
      const upstream = tcpConnect(this.targetPort, this.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ]) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  down(): void {
    this.refusing = true;
    for (const s of this.sockets) s.resetAndDestroy();
  }

  up(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface FlakyDatabase {
  /** What the server runs on. */
  database: Database;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

/** PostgreSQL: this test file's own database, reached through the proxy. */
async function flakyPostgres(): Promise<FlakyDatabase> {
  const direct = await createTestDatabase();
  const [{ name }] = rowsOf<{ name: string }>(await direct.db.execute(sql`select current_database() as name`));
  const server = new URL(process.env.TEST_DATABASE_URL as string);
  const proxy = new DroppingProxy(server.hostname, Number(server.port || 5432));
  const url = new URL(server);
  url.hostname = '127.0.0.1';
  url.port = String(await proxy.start());
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), 5);
  return {
    database,
    down: () => proxy.down(),
    up: () => proxy.up(),
    close: async () => {
      await database.close();
      await proxy.close();
      await direct.close();
    },
  };
}

/** The embedded database, loaded like every test file's, whose every query fails while down. */
async function flakyPglite(): Promise<FlakyDatabase> {
  const client = await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) });
  let failing = false;
  const fail = async () => {
    throw new Error('Connection terminated unexpectedly');
  };
  const flaky = new Proxy(client, {
    get(target, prop) {
      if (failing && (prop === 'query' || prop === 'exec' || prop === 'transaction')) return fail;
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const database = openPglite(flaky);
  return {
    database,
    down: () => {
      failing = true;
    },
    up: () => {
      failing = false;
    },
    close: () => database.close(),
  };
}

let flaky: FlakyDatabase;
let ctx: TestContext;
let base: string;
let dataDir: string;

beforeAll(async () => {
  flaky = process.env.TEST_DB === 'postgres' ? await flakyPostgres() : await flakyPglite();
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-db-faults-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    WHATSAPP_DRIVER: 'simulator',
    // A row whose outcome could not be written is handed back after twice this.
    DISPATCH_LEASE_MS: '1000',
  });
  const app = (await buildApp({
    config,
    db: flaky.database.db,
    serveWeb: false,
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 30, readMs: 60 },
    dispatcher: { tickMs: 20, timeScale: 0.001 },
  })) as TestApp;
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  ctx = { app, database: flaky.database, close: async () => app.close() };
});
afterAll(async () => {
  await ctx?.close();
  await flaky?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const http = (cookie: string, method: string, path: string, body?: unknown) =>
  apiFetch(base, cookie, method, path, body);

describe('the database going away for a moment', () => {
  it('the server keeps answering in Portuguese, recovers by itself, and the campaign finishes: none lost, none twice', async () => {
    const user = await createUser(ctx);
    const { cookie } = await signIn(base, { username: user.username, password: TEST_PASSWORD });
    await setAccountSettings(ctx, user.id, { respectBusinessHours: false, messageDelay: 20 });
    expect((await http(cookie, 'POST', '/api/whatsapp/connect')).status).toBe(200);
    await waitFor(
      async () => (await http(cookie, 'GET', '/api/whatsapp-session')).body,
      (s) => s?.isConnected === true,
    );
    const driver = ctx.app.deps.connections.personalDriver(
      ctx.app.deps.registry.primaryOf(user.id) ?? '',
    ) as SimulatorDriver;
    const phones = Array.from({ length: RECIPIENTS }, (_, i) => `552198800${String(1001 + i * 2)}`);
    await ctx.database.db
      .insert(contacts)
      .values(phones.map((p, i) => ({ userId: user.id, name: `Cliente ${i}`, phone: `+${p}` })));
    const id = await startCampaign({ base, cookie }, 'Durante a queda');
    await waitFor(
      async () => driver.outbox.length,
      (n) => n >= 5,
      10_000,
    );

    // The outage, with the app busy: pages read and written, the campaign sending.
    flaky.down();
    // A customer writes meanwhile: on a personal number nobody would deliver it again.
    const inbound = driver.injectInbound('5521977770001', 'Oi, vocês estão abertos?');
    const answers: Array<{ path: string } & ApiAnswer> = [];
    const end = Date.now() + OUTAGE_MS;
    let round = 0;
    while (Date.now() < end) {
      round++;
      const calls: Array<[string, string, unknown?]> = [
        ['GET', '/api/health'],
        ['GET', `/api/campaigns/${id}`],
        ['GET', '/api/campaigns'],
        ['GET', '/api/contacts'],
        ['POST', '/api/campaigns', { name: `Rascunho ${round}`, message: 'Oi', targetType: 'contacts' }],
      ];
      answers.push(
        ...(await Promise.all(
          calls.map(async ([method, path, body]) => ({ path, ...(await http(cookie, method, path, body)) })),
        )),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    flaky.up();
    // It is stored once the database is back, once.
    const stored = await waitFor(
      () =>
        ctx.database.db
          .select({ id: whatsappInboundMessages.id })
          .from(whatsappInboundMessages)
          .where(eq(whatsappInboundMessages.providerMessageId, inbound.providerMessageId)),
      (rows) => rows.length > 0,
      15_000,
    );
    expect(stored).toHaveLength(1);

    // The process lived through it: liveness answered throughout, and what needed the database
    // was refused with the Portuguese message, nothing of the database's own error in it.
    expect(answers.filter((a) => a.path === '/api/health').every((a) => a.status === 200)).toBe(true);
    const failed = answers.filter((a) => a.status >= 400);
    expect(failed.length).toBeGreaterThan(0);
    for (const a of failed) {
      expect(a.status, `${a.path}: ${a.text}`).toBe(503);
      expect(a.body, a.path).toMatchObject({ success: false, code: 'UNAVAILABLE', message: msg.generic.unavailable });
      expect(a.text, a.path).not.toMatch(/terminated|ECONN|socket|pg|PGlite|at .*\(/i);
    }

    // Back without a restart: reads and writes answer again, and the campaign finishes.
    await waitFor(
      async () => (await http(cookie, 'GET', `/api/campaigns/${id}`)).status,
      (s) => s === 200,
      10_000,
    );
    const draft = await http(cookie, 'POST', '/api/campaigns', {
      name: 'Depois',
      message: 'Oi',
      targetType: 'contacts',
    });
    expect(draft.status, draft.text).toBe(200);
    const done = await untilCampaign({ base, cookie }, id, (c) => c?.status === 'completed', 20_000);
    expect(done.progress).toMatchObject({ total: RECIPIENTS, queued: 0, sending: 0, failed: 0 });

    // Every recipient got one message id (a send retried goes under the id chosen before the
    // first try), and every receipt was kept: each row read, as the simulator reads everything.
    const ids = new Map<string, Set<string>>();
    for (const m of driver.outbox) ids.set(m.to, (ids.get(m.to) ?? new Set()).add(m.providerMessageId));
    expect([...ids.keys()].sort()).toEqual([...phones].sort());
    const rows = () =>
      ctx.database.db
        .select({
          recipient: campaignRecipients.recipient,
          status: campaignRecipients.status,
          providerMessageId: campaignRecipients.providerMessageId,
        })
        .from(campaignRecipients)
        .where(eq(campaignRecipients.campaignId, id));
    await waitFor(
      async () => (await rows()).filter((r) => r.status !== 'read'),
      (r) => r.length === 0,
      15_000,
    );
    for (const r of await rows()) expect([...(ids.get(r.recipient) ?? [])]).toEqual([r.providerMessageId]);
    // One message at a time goes out on a personal number: at most the one in flight when the
    // database went away went again, under the same id.
    expect(driver.outbox.length).toBeLessThanOrEqual(RECIPIENTS + 1);
    const after = (await http(cookie, 'GET', `/api/campaigns/${id}`)).body;
    expect(after).toMatchObject({ messagesSent: RECIPIENTS, messagesRead: RECIPIENTS });
    const figures = (await http(cookie, 'GET', '/api/metrics')).body;
    expect(figures).toMatchObject({ messagesSent: RECIPIENTS, read: RECIPIENTS });
  }, 60_000);
});
