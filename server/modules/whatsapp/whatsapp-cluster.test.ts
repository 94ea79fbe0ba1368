import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsappSession } from '../../../contract/whatsapp';
import { buildApp } from '../../app';
import { type Config, loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { insertConnection } from '../../testing/connections';
import { createUser, loginAs, type TestApp, type TestContext, waitFor } from '../../testing/test-app';
import { createTestDatabase } from '../../testing/test-db';
import { ConnectionLeases } from '../../whatsapp/connection-leases';
import { SimulatorDriver, simulatedNumber, simulatedWhatsapp } from '../../whatsapp/simulator/simulator-driver';

/**
 * Personal connections shared by two apps on one PostgreSQL database (one process alone on the
 * embedded database): one holder by lease, its state answered by every process, commands run on
 * the holder, a closing holder's connections taken over without a second live connection, and a
 * second connection of a number reported as replaced.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const timings = { qrMs: 500, detectMs: 100, deliveredMs: 30, readMs: 60 };

let database: Database;
let dataDir: string;
let config: Config;
let databaseUrl: string | undefined;
const apps: Record<string, TestApp> = {};

async function start(id: string): Promise<TestApp> {
  const app = (await buildApp({
    config,
    db: database.db,
    serveWeb: false,
    dispatcher: { autoStart: false },
    simulatorTimings: timings,
    databaseUrl,
    registry: { beatMs: 200, deadAfterMs: 1000, id },
  })) as TestApp;
  await app.ready();
  apps[id] = app;
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-wa-cluster-'));
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    WHATSAPP_DRIVER: 'simulator',
  });
  if (onPostgres) {
    const [{ name }] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  await start('a');
  if (onPostgres) await start('b');
});

afterAll(async () => {
  for (const app of Object.values(apps)) await app.close();
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const ctxOf = (app: TestApp) => ({ app, database }) as TestContext;

const call = (app: TestApp, method: InjectOptions['method'], url: string, cookie: string, payload?: object) =>
  app.inject({ method, url, headers: { cookie, origin: 'http://localhost' }, ...(payload ? { payload } : {}) });

const poll = async (app: TestApp, cookie: string) =>
  (await call(app, 'GET', '/api/whatsapp-session', cookie)).json() as WhatsappSession;

async function customer() {
  const user = await createUser(ctxOf(apps.a));
  return { user, cookie: await loginAs(ctxOf(apps.a), user) };
}

/** The account's personal number (its connection id), once it has one. */
async function numberOf(userId: string): Promise<string> {
  const entry = await apps[Object.keys(apps)[0]].deps.connections.directory.primary(userId, 'personal');
  if (!entry) throw new Error('no personal number');
  return entry.id;
}

async function leaseRow(connectionId: string) {
  const [row] = rowsOf<{ owner: string | null; held: boolean; state: string | null }>(
    await database.db.execute(sql`
      select owner, lease_until is not null as held, state from whatsapp_connection_leases
      where connection_id = ${connectionId}`),
  );
  return row ? { ...row, state: row.state ? (JSON.parse(row.state) as WhatsappSession) : null } : undefined;
}

function simulatorOf(app: TestApp, connectionId: string): SimulatorDriver {
  const driver = app.deps.connections.personalDriver(connectionId);
  if (!(driver instanceof SimulatorDriver)) throw new Error('no simulated driver here');
  return driver;
}

describe('the lease of a personal connection', () => {
  it('is taken from a process that stopped beating, never from a live holder', async () => {
    const { user } = await customer();
    const other = await customer();
    const mine = await insertConnection(database.db, user.id, 'personal');
    const theirs = await insertConnection(database.db, other.user.id, 'personal');
    await database.db.execute(sql`
      insert into server_processes (id, host, pid, heartbeat_at) values
        ('dead-x', 'h', 1, now() - interval '1 hour'), ('live-y', 'h', 2, now() + interval '1 hour')`);
    // Draining: live for the leases, but no share of work for the apps of this file.
    await database.db.execute(sql`update server_processes set draining = true where id = 'live-y'`);
    await database.db.execute(sql`
      insert into whatsapp_connection_leases (connection_id, user_id, owner, lease_until) values
        (${mine.id}, ${user.id}, 'dead-x', now() + interval '1 hour'),
        (${theirs.id}, ${other.user.id}, 'live-y', now() + interval '1 hour')`);
    const live = sql`select id from server_processes where heartbeat_at > now() - interval '1 second'`;
    const leases = new ConnectionLeases(database.db, { id: 'z', liveIds: () => live });
    expect(await leases.acquire(mine.id, user.id)).toBe(true);
    expect(await leases.acquire(theirs.id, other.user.id)).toBe(false);
    expect(await leases.owner(theirs.id)).toBe('live-y');
    expect((await leaseRow(mine.id))?.owner).toBe('z');
    // A renewal by a process that lost the lease keeps nothing.
    expect([
      ...(await new ConnectionLeases(database.db, { id: 'dead-x', liveIds: () => live }).renew([mine.id])),
    ]).toEqual([]);
    await database.db.execute(
      sql`delete from whatsapp_connection_leases where connection_id in (${mine.id}, ${theirs.id})`,
    );
    await database.db.execute(sql`delete from server_processes where id in ('dead-x', 'live-y')`);
  });
});

if (!onPostgres) {
  describe('one process alone (embedded database)', () => {
    it('connecting writes the lease and the state row; disconnecting lets the lease go', async () => {
      const { a } = apps;
      const { user, cookie } = await customer();
      expect((await call(a, 'POST', '/api/whatsapp/connect', cookie)).statusCode).toBe(200);
      const number = await numberOf(user.id);
      await waitFor(
        () => poll(a, cookie),
        (s) => s.phoneNumber === simulatedNumber(number),
      );
      const row = await waitFor(
        () => leaseRow(number),
        (r) => r?.state?.phoneNumber === simulatedNumber(number),
      );
      expect(row).toMatchObject({ owner: 'a', held: true, state: { isConnected: true, state: 'connected' } });
      expect((await call(a, 'POST', '/api/whatsapp/disconnect', cookie)).statusCode).toBe(200);
      expect(await leaseRow(number)).toMatchObject({ owner: 'a', held: false, state: { state: 'disconnected' } });
      expect(await poll(a, cookie)).toMatchObject({ state: 'disconnected', isConnected: false });
    });
  });
}

if (onPostgres) {
  describe('two processes on one PostgreSQL', () => {
    let user: { id: string };
    let cookie: string;
    let number: string;

    it('a number connected through A: B polls the same states, QR then connected', async () => {
      ({ user, cookie } = await customer());
      const { a, b } = apps;
      expect((await call(a, 'POST', '/api/whatsapp/connect', cookie)).statusCode).toBe(200);
      number = await numberOf(user.id);
      const seen = new Set<string>();
      const last = await waitFor(
        async () => {
          const s = await poll(b, cookie);
          seen.add(s.state);
          return s;
        },
        (s) => s.phoneNumber === simulatedNumber(number),
        2_000,
      );
      expect(seen.has('qr')).toBe(true);
      expect(last).toEqual(await poll(a, cookie));
      expect(b.deps.connections.personalDriver(number)).toBeUndefined();
      expect(await leaseRow(number)).toMatchObject({ owner: 'a', held: true, state: { isConnected: true } });
    });

    it('a test send, an inbound message and a connect landing on B run on A', async () => {
      const { a, b } = apps;
      const replaced = simulatedWhatsapp.replacedCount;
      const driver = simulatorOf(a, number);
      const campaign = (
        await call(b, 'POST', '/api/campaigns', cookie, {
          name: 'Teste',
          message: 'Olá do teste',
          targetType: 'all',
          targetGroups: [],
          status: 'draft',
        })
      ).json() as { id: string };
      const sent = await call(b, 'POST', `/api/campaigns/${campaign.id}/test`, cookie, { phone: '(21) 99876-5431' });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(driver.outbox.map((m) => m.to)).toContain('5521998765431');
      const outbox = (await call(b, 'GET', '/api/whatsapp/simulator/outbox', cookie)).json() as {
        messages: Array<{ to: string }>;
      };
      expect(outbox.messages.map((m) => m.to)).toContain('5521998765431');

      const inbound: string[] = [];
      driver.on('inbound', (m) => inbound.push(m.text));
      const injected = await call(b, 'POST', '/api/whatsapp/simulator/inbound', cookie, {
        from: '5511911112222',
        text: 'Oi pelo B',
      });
      expect(injected.statusCode, injected.body).toBe(200);
      expect(inbound).toEqual(['Oi pelo B']);
      // So does the simulator's restriction: the next send of A's connection fails with WhatsApp's 463.
      const restricted = await call(b, 'POST', '/api/whatsapp/simulator/restrict', cookie, { connectionId: number });
      expect(restricted.statusCode, restricted.body).toBe(200);
      await expect(driver.send('5521998765431', { kind: 'text', text: 'oi' })).rejects.toMatchObject({
        providerCode: 463,
      });

      // Connecting again through B reaches the holder (already connected): no second connection.
      expect((await call(b, 'POST', '/api/whatsapp/connect', cookie)).statusCode).toBe(200);
      expect(b.deps.connections.personalDriver(number)).toBeUndefined();
      expect(simulatedWhatsapp.replacedCount).toBe(replaced);
    });

    it('A closing: B takes the connection over from the saved link, with no second live connection', async () => {
      const { a, b } = apps;
      const replaced = simulatedWhatsapp.replacedCount;
      const states = new Set<string>();
      await a.close();
      delete apps.a;
      await waitFor(
        async () => {
          const s = await poll(b, cookie);
          states.add(s.state);
          return b.deps.connections.personalDriver(number)?.status();
        },
        (s) => s?.phoneNumber === simulatedNumber(number),
        10_000,
      );
      expect(states.has('qr')).toBe(false);
      expect(simulatedWhatsapp.replacedCount).toBe(replaced);
      expect(await poll(b, cookie)).toMatchObject({ isConnected: true, phoneNumber: simulatedNumber(number) });
      expect(
        await waitFor(
          () => leaseRow(number),
          (r) => r?.state?.isConnected === true,
        ),
      ).toMatchObject({
        owner: 'b',
        held: true,
      });
      // A process started again while B holds the number does not connect it a second time.
      const again = await start('a');
      await again.deps.connections.restore();
      await new Promise((r) => setTimeout(r, 300));
      expect(again.deps.connections.personalDriver(number)).toBeUndefined();
      expect(simulatedWhatsapp.replacedCount).toBe(replaced);
      expect(await poll(again, cookie)).toMatchObject({ isConnected: true, phoneNumber: simulatedNumber(number) });
    });
  });
}

describe('a second live connection of a number', () => {
  it('makes the older one drop as replaced', async () => {
    const app = apps.b ?? apps.a;
    const { user, cookie } = await customer();
    await call(app, 'POST', '/api/whatsapp/connect', cookie);
    await waitFor(
      () => poll(app, cookie),
      (s) => s.isConnected,
    );
    const number = await numberOf(user.id);
    const held = simulatorOf(app, number);
    const before = simulatedWhatsapp.replacedCount;
    const intruder = new SimulatorDriver(number, timings);
    await intruder.connect();
    await waitFor(
      () => held.status().state,
      (s) => s === 'disconnected',
    );
    expect(held.closeReason).toBe('replaced');
    expect(simulatedWhatsapp.replacedCount).toBe(before + 1);
    expect(intruder.status().isConnected).toBe(true);
    expect(await poll(app, cookie)).toMatchObject({ isConnected: false });
    await intruder.disconnect();
  });
});
