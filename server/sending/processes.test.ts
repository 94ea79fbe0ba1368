import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startNodeServer } from '../../scripts/launch-server.mjs';
import { FakeGraphApi } from '../testing/fake-graph-api';

/**
 * Real server processes (the source run with tsx) sending through the Cloud API driver to a local
 * fake Graph API, which is the witness of what left: killed with SIGKILL mid-campaign and
 * restarted, and two processes on one database.
 */
const PHONE_ID = '109000000000777';
const TOKEN = 'EAAG-processes-token';
const ADMIN = { username: 'admin', password: 'admin-processos-1' };
const RECIPIENTS = 1000;

let graph: FakeGraphApi;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.phones.set(PHONE_ID, {
    token: TOKEN,
    display_phone_number: '551130007777',
    verified_name: 'Loja Processos',
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    status: 'CONNECTED',
  });
  cleanups.push(() => graph.stop());
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Where the servers keep their data: a PGlite directory, or a fresh PostgreSQL database on the PostgreSQL run. */
async function storage(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-proc-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (process.env.TEST_DB !== 'postgres') return { DATA_DIR: dataDir };
  const db = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_proc');
  cleanups.push(() => db.drop());
  return { DATA_DIR: dataDir, DATABASE_URL: db.url };
}

async function server(env: Record<string, string>, name: string) {
  const s = await startNodeServer({
    name,
    script: 'server/main.ts',
    nodeArgs: ['--import', 'tsx'],
    output: 'capture',
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOGIN_RATE_LIMIT: '1000',
      GRAPH_API_URL: graph.url,
      WHATSAPP_DRIVER: 'simulator',
      DISPATCH_TICK_MS: '50',
      DISPATCH_LEASE_MS: '2000',
      WHATSAPP_CLOUD_THROUGHPUT: '150',
      ...env,
    },
  });
  cleanups.push(() => s.stop());
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${s.url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (s.exitStatus() || Date.now() > deadline) throw new Error(`${name} did not start:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return s;
}

/** A signed-in client of one server, sending what a browser would. */
async function client(base: string) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        cookie,
        origin: base,
        ...(body === undefined || typeof body === 'string' ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text), text };
  };
}

type Client = Awaited<ReturnType<typeof client>>;

/** The Cloud API as channel, any hour, RECIPIENTS contacts, and a started campaign. */
async function startCampaign(call: Client): Promise<string> {
  expect(
    (await call('POST', '/api/whatsapp-business/configure', { accessToken: TOKEN, phoneNumberId: PHONE_ID })).status,
  ).toBe(200);
  const settings = await call('PUT', '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay: 1,
    dailyLimit: 100_000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
    channel: 'cloud',
  });
  expect(settings.status, settings.text).toBe(200);
  const boundary = '----disparo-proc';
  const csv = [
    'Nome,Telefone',
    ...Array.from({ length: RECIPIENTS }, (_, i) => `Cliente ${i},+55219${String(80_000_000 + i)}`),
  ].join('\n');
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  const imported = await call('POST', '/api/contacts/import', body, {
    'content-type': `multipart/form-data; boundary=${boundary}`,
  });
  expect(imported.json().imported, imported.text).toBe(RECIPIENTS);
  const created = await call('POST', '/api/campaigns', {
    name: 'Processos',
    message: 'Oi {{nome}}',
    targetType: 'contacts',
  });
  const id = created.json().id as string;
  expect((await call('POST', `/api/campaigns/${id}/send`)).status).toBe(200);
  return id;
}

const sentTo = () => graph.sent.map((m) => m.to as string);

async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function duplicates(to: string[]): number {
  return to.length - new Set(to).size;
}

describe('server processes', () => {
  it('a server killed with SIGKILL mid-campaign loses nothing: after restart every recipient got one message', async () => {
    graph.sent.length = 0;
    const env = await storage();
    const first = await server(env, 'first');
    const call = await client(first.url);
    const id = await startCampaign(call);
    await until(sentTo, (to) => to.length >= 200, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = sentTo().length;
    expect(atKill).toBeLessThan(RECIPIENTS);

    const second = await server(env, 'second');
    const again = await client(second.url);
    const done = await until(
      async () => (await again('GET', `/api/campaigns/${id}`)).json(),
      (c) => c.status === 'completed',
      60_000,
    );
    const to = sentTo();
    expect(new Set(to).size).toBe(RECIPIENTS);
    // Only what was in flight at the kill may have gone twice (at most a claim batch and the requests in flight).
    expect(duplicates(to)).toBeLessThanOrEqual(150);
    expect(done.progress).toMatchObject({ total: RECIPIENTS, queued: 0, sending: 0, failed: 0 });
    expect(done.messagesSent).toBe(RECIPIENTS);
  });

  it('two processes on one database: one sends, none twice (PostgreSQL); a second process cannot open the embedded database', async () => {
    graph.sent.length = 0;
    const env = await storage();
    const one = await server(env, 'one');
    if (process.env.TEST_DB !== 'postgres') {
      const two = await startNodeServer({
        name: 'two',
        script: 'server/main.ts',
        nodeArgs: ['--import', 'tsx'],
        output: 'capture',
        env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
      });
      cleanups.push(() => two.stop());
      const status = await two.exited;
      expect(status.code).toBe(1);
      expect(two.output()).toContain('Another Disparo server');
      return;
    }
    const two = await server(env, 'two');
    const call = await client(one.url);
    const id = await startCampaign(call);
    const other = await client(two.url);
    await until(
      async () => (await other('GET', `/api/campaigns/${id}`)).json(),
      (c) => c.status === 'completed',
      60_000,
    );
    expect(sentTo()).toHaveLength(RECIPIENTS);
    expect(duplicates(sentTo())).toBe(0);
  });
});
