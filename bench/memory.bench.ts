import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDatabase, type NodeServer, startNodeServer } from '../scripts/launch-server.mjs';
import { FakeGraphApi } from '../server/testing/fake-graph-api';
import { login } from './lib/accounts';
import { contactRows, toCsvText, uploadContacts } from './lib/contacts';
import { expectStatus, request } from './lib/http';
import { type BenchResult, type Check, ceiling, fmt, printChecks } from './lib/report';
import { defaultServerBundle, repoRoot, rssMb, whenReady } from './lib/server';
import { envInt, median } from './lib/stats';

/**
 * Benchmark: memory. (1) At rest: the resident memory of a started, idle server on the embedded
 * database at its very first start (an empty DATA_DIR, so initdb runs) and at a later start on the
 * same directory, and on PostgreSQL. (2) Per connection, on PostgreSQL: 200 accounts with a
 * simulator number connected and 200 with a Cloud API number (against the local fake Graph API),
 * then a small campaign on each, twice; the server's RSS and V8 heap after a forced collection
 * (bench/lib/memory-probe.mjs) are read at each step. The second campaign round shows what grows
 * with use rather than with connections.
 */
export const name = 'memory';

const REST_EMBEDDED_MAX_MB = 400;
const REST_POSTGRES_MAX_MB = 150;
const PER_CONNECTION_MAX_MB = 2;
/** How long a started server idles before its memory is read. */
const SETTLE_MS = 5_000;
/** The PostgreSQL server when BENCH_DATABASE_URL is not set: the per-connection figures are PostgreSQL's. */
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { username: 'benchadmin', password: 'bench-admin-password-1' };
const RECIPIENTS = 5;
const probeScript = join(repoRoot, 'bench', 'lib', 'memory-probe.mjs');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  rssMb: number;
  heapMb: number;
}

/** RSS of the process: the median of five readings 200 ms apart. */
async function steadyRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssMb(pid));
    await sleep(200);
  }
  return median(samples);
}

function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function startServer(
  label: string,
  env: Record<string, string>,
  probeFile?: string,
): Promise<NodeServer & { started: number }> {
  const started = Date.now();
  const server = await startNodeServer({
    name: label,
    script: defaultServerBundle(),
    output: 'capture',
    nodeArgs: probeFile ? ['--expose-gc', '--import', pathToFileURL(probeScript).href] : [],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOGIN_RATE_LIMIT: '1000000',
      WHATSAPP_DRIVER: 'simulator',
      ...(probeFile ? { BENCH_MEMORY_PROBE_FILE: probeFile } : {}),
      ...env,
    },
  });
  const ready = await whenReady(server);
  console.log(`  ${label}: pid ${ready.pid} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { ...ready, started };
}

/** A started server idles SETTLE_MS; its RSS then, and its peak since it started. */
async function atRest(label: string, env: Record<string, string>): Promise<{ rss: number; peak: number }> {
  const server = await startServer(label, env);
  try {
    await sleep(SETTLE_MS);
    const rss = await steadyRss(server.pid);
    const peak = peakRssMb(server.pid);
    console.log(`    at rest ${fmt(rss, 0)} MB (peak during start ${fmt(peak, 0)} MB)`);
    return { rss, peak };
  } finally {
    await server.stop();
  }
}

async function rest(checks: Check[], info: BenchResult['info'], postgres: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-memory-'));
  try {
    const first = await atRest('embedded, first start (initdb)', { DATA_DIR: dataDir });
    const later = await atRest('embedded, later start', { DATA_DIR: dataDir });
    checks.push(
      ceiling('RSS at rest, embedded, first start', first.rss, REST_EMBEDDED_MAX_MB, 'MB'),
      ceiling('RSS at rest, embedded, later start', later.rss, REST_EMBEDDED_MAX_MB, 'MB'),
    );
    Object.assign(info, {
      'rest MB embedded first': Math.round(first.rss),
      'peak MB embedded first': Math.round(first.peak),
      'rest MB embedded later': Math.round(later.rss),
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const database = await createDatabase(postgres, 'disparo_bench_memory');
  const pgDataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-memory-'));
  try {
    const pg = await atRest('PostgreSQL', { DATA_DIR: pgDataDir, DATABASE_URL: database.url });
    checks.push(ceiling('RSS at rest, PostgreSQL', pg.rss, REST_POSTGRES_MAX_MB, 'MB'));
    info['rest MB postgres'] = Math.round(pg.rss);
  } finally {
    rmSync(pgDataDir, { recursive: true, force: true });
    await database.drop();
  }
}

/** Asks the server's probe for its memory after a full collection. */
async function probe(pid: number, file: string): Promise<Figures> {
  const asked = Date.now();
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    if (!existsSync(file)) continue;
    let m: { at: number; rss: number; heapUsed: number };
    try {
      m = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue; // read while an older probe's file was being replaced
    }
    if (m.at >= asked) return { rssMb: m.rss / 1048576, heapMb: m.heapUsed / 1048576 };
  }
  throw new Error('the memory probe did not answer');
}

async function api(base: string, cookie: string, method: string, path: string, json?: unknown) {
  const res = await request(base, method, path, { cookie, json });
  return { status: res.status, body: res.body ? JSON.parse(res.body) : undefined };
}

/** Runs `fn` over `items`, `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/** `count` approved Enterprise customers, signed in; returns their session cookies. */
async function customers(base: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `benchmem${i + 1}`);
  const password = (u: string) => `${u}-password-1`;
  await inLanes(names, 2, async (username, i) => {
    expectStatus(
      await request(base, 'POST', '/api/auth/register', {
        json: {
          name: `Conta ${i + 1}`,
          email: `${username}@bench.example`,
          username,
          password: password(username),
          whatsappNumber: `+55 11 9${String(i + 1).padStart(4, '0')}-1111`,
        },
      }),
      201,
      `register ${username}`,
    );
  });
  const admin = await login(base, ADMIN.username, ADMIN.password);
  const users = JSON.parse(
    expectStatus(await request(base, 'GET', '/api/admin/users', { cookie: admin }), 200, 'list users').body,
  ) as Array<{ id: string; username: string }>;
  const ids = new Map(users.map((u) => [u.username, u.id]));
  await inLanes(names, 4, async (username) => {
    expectStatus(
      await request(base, 'PATCH', `/api/admin/users/${ids.get(username)}`, {
        json: { isActive: true, planType: 'enterprise' },
        cookie: admin,
      }),
      200,
      `approve ${username}`,
    );
  });
  const cookies: string[] = new Array(count);
  await inLanes(names, 2, async (username, i) => {
    cookies[i] = await login(base, username, password(username));
  });
  return cookies;
}

async function putSettings(base: string, cookie: string, patch: Record<string, unknown> = {}) {
  const res = await api(base, cookie, 'PUT', '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay: 1,
    dailyLimit: 100_000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
    ...patch,
  });
  if (res.status !== 200) throw new Error(`settings answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** Starts a campaign to the account's contacts in every account and waits until each completes. */
async function campaignRound(base: string, cookies: readonly string[], round: number): Promise<number> {
  const started = Date.now();
  const ids: string[] = new Array(cookies.length);
  await inLanes(cookies, 4, async (cookie, i) => {
    const created = await api(base, cookie, 'POST', '/api/campaigns', {
      name: `Rodada ${round}`,
      message: '{Olá|Oi} {{primeiro_nome}}, temos novidades!',
      targetType: 'contacts',
    });
    if (created.status !== 200) throw new Error(`campaign create answered ${created.status}`);
    ids[i] = created.body.id as string;
    const sent = await api(base, cookie, 'POST', `/api/campaigns/${ids[i]}/send`);
    if (sent.status !== 200) throw new Error(`send answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  });
  let pending = cookies.map((_, i) => i);
  const deadline = Date.now() + 600_000;
  while (pending.length) {
    if (Date.now() > deadline) throw new Error(`${pending.length} campaigns of round ${round} still running`);
    await sleep(1_000);
    const still: number[] = [];
    await inLanes(pending, 4, async (i) => {
      const c = (await api(base, cookies[i], 'GET', `/api/campaigns/${ids[i]}`)).body;
      if (c.status !== 'completed') still.push(i);
    });
    pending = still;
  }
  return (Date.now() - started) / 1000;
}

async function perConnection(checks: Check[], info: BenchResult['info'], postgres: string): Promise<void> {
  const n = envInt('BENCH_MEMORY_CONNECTIONS', 200, 10, 1_000);
  const graph = await new FakeGraphApi().start();
  graph.keepRequests = false;
  graph.latencyMs = 20;
  const phoneId = (i: number) => `1091${String(i).padStart(11, '0')}`;
  const token = (i: number) => `EAAG-bench-memory-${i}`;
  for (let i = 0; i < n; i++) {
    graph.phones.set(phoneId(i), {
      token: token(i),
      display_phone_number: `55113${String(i).padStart(7, '0')}`,
      verified_name: `Loja ${i}`,
      quality_rating: 'GREEN',
      code_verification_status: 'VERIFIED',
      status: 'CONNECTED',
    });
  }
  const database = await createDatabase(postgres, 'disparo_bench_memory');
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-memory-'));
  const probeFile = join(dataDir, 'memory-probe.json');
  let server: (NodeServer & { started: number }) | undefined;
  try {
    server = await startServer(
      `PostgreSQL, ${n} simulator + ${n} Cloud API accounts`,
      { DATA_DIR: dataDir, DATABASE_URL: database.url, GRAPH_API_URL: graph.url, DISPATCH_TICK_MS: '200' },
      probeFile,
    );
    const base = server.url;
    const pid = server.pid;
    const cookies = await customers(base, 2 * n);
    const simulator = cookies.slice(0, n);
    const cloud = cookies.slice(n);
    // Numbers ending in an odd digit: the simulator delivers to all of them.
    const rows = [
      ['Nome', 'Telefone'],
      ...contactRows(RECIPIENTS)
        .slice(1)
        .map((r, i) => [r[0], `+55 21 9${String(87_650_001 + i * 2)}`]),
    ];
    const csv = Buffer.from(toCsvText(rows));
    await inLanes(cookies, 4, async (cookie) => {
      const res = await uploadContacts(base, cookie, 'contatos.csv', csv);
      if (res.body.imported !== RECIPIENTS) throw new Error(`imported ${JSON.stringify(res.body)}`);
    });
    await inLanes(simulator, 4, (cookie) => putSettings(base, cookie));
    console.log(`    ${2 * n} accounts signed in, ${RECIPIENTS} contacts each`);
    await sleep(SETTLE_MS);
    const accounts = await probe(pid, probeFile);

    await inLanes(simulator, 4, async (cookie) => {
      const res = await api(base, cookie, 'POST', '/api/whatsapp/connect');
      if (res.status !== 200) throw new Error(`connect answered ${res.status}: ${JSON.stringify(res.body)}`);
    });
    let waiting = simulator;
    for (let round = 0; waiting.length; round++) {
      if (round > 120) throw new Error(`${waiting.length} simulator numbers never connected`);
      await sleep(500);
      const still: string[] = [];
      await inLanes(waiting, 4, async (cookie) => {
        const s = (await api(base, cookie, 'GET', '/api/whatsapp-session')).body;
        if (!s.isConnected) still.push(cookie);
      });
      waiting = still;
    }
    await sleep(SETTLE_MS);
    const simulatorIdle = await probe(pid, probeFile);

    await inLanes(cloud, 4, async (cookie) => {
      const i = cloud.indexOf(cookie);
      const res = await api(base, cookie, 'POST', '/api/whatsapp-business/configure', {
        accessToken: token(i),
        phoneNumberId: phoneId(i),
      });
      if (res.status !== 200) throw new Error(`configure answered ${res.status}: ${JSON.stringify(res.body)}`);
      await putSettings(base, cookie, { channel: 'cloud' });
    });
    await sleep(SETTLE_MS);
    const cloudIdle = await probe(pid, probeFile);

    const firstSeconds = await campaignRound(base, cookies, 1);
    await sleep(SETTLE_MS);
    const afterFirst = await probe(pid, probeFile);
    const secondSeconds = await campaignRound(base, cookies, 2);
    await sleep(SETTLE_MS);
    const afterSecond = await probe(pid, probeFile);
    const sent = graph.sent.length;
    if (sent !== 2 * n * RECIPIENTS) throw new Error(`the fake Graph API received ${sent} of ${2 * n * RECIPIENTS}`);

    const per = (a: Figures, b: Figures, count: number) => ({
      rss: (b.rssMb - a.rssMb) / count,
      heap: (b.heapMb - a.heapMb) / count,
    });
    const sim = per(accounts, simulatorIdle, n);
    const cl = per(simulatorIdle, cloudIdle, n);
    const used = per(accounts, afterFirst, 2 * n);
    const growth = per(afterFirst, afterSecond, 2 * n);
    const line = (label: string, f: Figures) =>
      console.log(`    ${label}: RSS ${fmt(f.rssMb, 0)} MB, heap ${fmt(f.heapMb, 1)} MB`);
    line(`${2 * n} accounts, nothing connected`, accounts);
    line(`${n} simulator numbers connected`, simulatorIdle);
    line(`+ ${n} Cloud API numbers`, cloudIdle);
    line(`after a campaign of ${RECIPIENTS} on each (${fmt(firstSeconds, 0)} s)`, afterFirst);
    line(`after a second one (${fmt(secondSeconds, 0)} s)`, afterSecond);
    const kb = (mb: number) => fmt(mb * 1024, 0);
    console.log(
      `    per connection: simulator idle ${kb(sim.rss)} KB RSS / ${kb(sim.heap)} KB heap; Cloud API idle ${kb(cl.rss)} KB / ${kb(cl.heap)} KB; after a campaign ${kb(used.rss)} KB / ${kb(used.heap)} KB; second round adds ${kb(growth.rss)} KB / ${kb(growth.heap)} KB`,
    );
    checks.push(
      ceiling('RSS per idle simulator connection', Math.max(0, sim.rss), PER_CONNECTION_MAX_MB, 'MB'),
      ceiling('RSS per idle Cloud API connection', Math.max(0, cl.rss), PER_CONNECTION_MAX_MB, 'MB'),
      ceiling('RSS per connection after a campaign', Math.max(0, used.rss), PER_CONNECTION_MAX_MB, 'MB'),
    );
    Object.assign(info, {
      connections: 2 * n,
      'rss MB with accounts': Math.round(accounts.rssMb),
      'rss MB after campaigns': Math.round(afterSecond.rssMb),
      'heap KB per idle simulator': Math.round(sim.heap * 1024),
      'heap KB per idle cloud': Math.round(cl.heap * 1024),
      'heap KB per connection after campaign': Math.round(used.heap * 1024),
      'heap KB per connection per further round': Math.round(growth.heap * 1024),
    });
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
    await graph.stop();
  }
}

export async function run(): Promise<BenchResult> {
  const checks: Check[] = [];
  const info: BenchResult['info'] = {};
  const postgres = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES;
  if (process.env.BENCH_MEMORY_PARTS !== 'connections') await rest(checks, info, postgres);
  if (process.env.BENCH_MEMORY_PARTS !== 'rest') await perConnection(checks, info, postgres);
  printChecks(checks);
  return { name, checks, info };
}
