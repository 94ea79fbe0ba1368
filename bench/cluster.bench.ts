import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, type FreshDatabase, type NodeServer, startNodeServer } from '../scripts/launch-server.mjs';
import { FakeGraphApi } from '../server/testing/fake-graph-api';
import { sendingSettings } from '../server/testing/sending-settings';
import { createApprovedCustomers, login } from './lib/accounts';
import { contactRows, toCsvText, unlimitedCustomer, uploadContacts } from './lib/contacts';
import { expectStatus, request } from './lib/http';
import { type BenchResult, type Check, ceiling, floor, fmt, printChecks } from './lib/report';
import { api, DEFAULT_POSTGRES, normalisedBr, postgresUnreachable, rateOf, shownUrl, waitFor } from './lib/sending';
import { cpuMs, type DisparoServer, defaultServerBundle, whenReady } from './lib/server';
import { envInt } from './lib/stats';

/**
 * Benchmark: several processes on one PostgreSQL database. (1) The 2-second session poll against
 * the built server started with WORKERS=1, 2 and 4 (node:cluster, one port) on the same database:
 * req/s of each and the ratio 2 workers ÷ 1. (2) Two single-worker processes sharing the database
 * and the data directory, a Cloud API campaign (local fake Graph API) to 5,000 recipients: the
 * process holding the account's lane is killed (SIGKILL) and the time until the other one sends
 * again is measured, then every recipient is checked to have been sent to, repeats counted.
 * (3) One single-worker process, ten customers each with its own Cloud API number (fake Graph API)
 * and a campaign to 2,000 recipients, all started at once: the aggregate send rate and each number's
 * own (at most its throughput, 80 msg/s), every send attributed to its number by the request path.
 */
export const name = 'cluster';

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password-1' };
const PATH = '/api/whatsapp-session';
const CONNECTIONS = 50;
const WORKER_COUNTS = [1, 2, 4] as const;
const MIN_SCALING = 1.6;
const TAKEOVER_MAX_MS = 15_000;
const CLOUD_THROUGHPUT = 400;
const PHONE_ID = '109000000000777';
const TOKEN = 'EAAG-bench-cluster-token';
/** The many-numbers part: Cloud API numbers on one process, and each one's throughput. */
const NUMBERS = 10;
const NUMBERS_THROUGHPUT = 80;
/** The parts, in the order they run (BENCH_CLUSTER_PARTS chooses some). */
const PARTS = ['poll', 'takeover', 'numbers'] as const;
/** How long a cluster may take to drain and stop before it is killed. */
const STOP_TIMEOUT_MS = 30_000;
/** The registry's window (server/cluster/process-registry.ts DEFAULT_DEAD_AFTER_MS). */
const LIVE_WINDOW = "interval '10 seconds'";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The parent pid of a process (Linux /proc), or -1 when it is gone. */
function parentPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** One launch of the built server on the shared database and data directory. */
interface Launched extends NodeServer {
  /** The server processes this launch put in the registry (its workers, or itself). */
  members: number[];
}

class Bench {
  readonly launched: Launched[] = [];
  constructor(
    readonly database: FreshDatabase,
    readonly sql: pg.Pool,
    readonly dataDir: string,
  ) {}

  /** Starts the built server with these variables and waits until `processes` of it are in the registry. */
  async launch(label: string, env: Record<string, string>, processes: number): Promise<Launched> {
    const started = Date.now();
    const server = await startNodeServer({
      name: label,
      script: defaultServerBundle(),
      output: 'capture',
      stopTimeoutMs: STOP_TIMEOUT_MS,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOGIN_RATE_LIMIT: '1000000',
        WHATSAPP_DRIVER: 'simulator',
        DATABASE_URL: this.database.url,
        // One machine: every process shares the data directory, and with it the generated secrets.
        DATA_DIR: this.dataDir,
        ...env,
      },
    });
    const ready = await whenReady(server);
    const launched: Launched = { ...ready, members: [] };
    this.launched.push(launched);
    // With WORKERS > 1 the launched process is the cluster's primary: its workers are the members.
    launched.members = await waitFor(`${label}: ${processes} process(es) in the registry`, 60_000, 100, async () => {
      if (launched.exitStatus()) throw new Error(`${label} exited:\n${launched.output()}`);
      const { rows } = await this.sql.query<{ pid: number }>(
        `select pid from server_processes where heartbeat_at > now() - ${LIVE_WINDOW} and not draining`,
      );
      const mine = rows
        .map((r) => Number(r.pid))
        .filter((pid) => pid === launched.pid || parentPid(pid) === launched.pid);
      return mine.length >= processes ? mine : undefined;
    });
    console.log(
      `  ${label}: pid ${launched.pid} ready at ${launched.url} in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        (launched.members.some((p) => p !== launched.pid) ? `, workers ${launched.members.join(', ')}` : ''),
    );
    return launched;
  }

  /** Stops a launch (SIGTERM: drain; SIGKILL after the grace period), and any worker it left behind. */
  async stop(server: Launched): Promise<void> {
    await server.stop();
    for (const pid of server.members) killIfAlive(pid);
    const at = this.launched.indexOf(server);
    if (at >= 0) this.launched.splice(at, 1);
  }

  async stopAll(): Promise<void> {
    for (const server of [...this.launched].reverse()) await this.stop(server).catch(() => undefined);
  }
}

/** What the shared helpers need of a started server. */
function asDisparo(server: Launched, dataDir: string): DisparoServer {
  return {
    name: server.name,
    url: server.url,
    pid: server.pid,
    output: server.output,
    stop: server.stop,
    dataDir,
    admin: ADMIN,
  };
}

/** CPU time (ms) used so far by a launch: its primary and its workers. */
const launchCpuMs = (server: Launched) =>
  [...new Set([server.pid, ...server.members])].reduce((sum, pid) => sum + cpuMs(pid), 0);

/** CPU time (ms) used so far by this process (the load generator). */
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface PollFigures {
  workers: number;
  rps: number;
  p99: number;
  failures: number;
  /** Server CPU (primary and workers) per answered request, µs. */
  serverUs: number;
  /** Load generator CPU per answered request, µs. */
  generatorUs: number;
}

/** `GET /api/whatsapp-session` with autocannon at 50 connections: a warm-up, then the measured run. */
async function loadPoll(server: Launched, workers: number, cookie: string, warmupS: number, seconds: number) {
  const probe = expectStatus(await request(server.url, 'GET', PATH, { cookie }), 200, `GET ${PATH}`);
  const state = (JSON.parse(probe.body) as { state?: unknown }).state;
  if (state !== 'disconnected') throw new Error(`GET ${PATH} answered ${probe.body}, expected a disconnected session`);
  const options: autocannon.Options = {
    url: `${server.url}${PATH}`,
    connections: CONNECTIONS,
    headers: { cookie },
    expectBody: probe.body,
    timeout: 10,
  };
  await autocannon({ ...options, duration: warmupS });
  const serverBefore = launchCpuMs(server);
  const ownBefore = ownCpuMs();
  const result = await autocannon({ ...options, duration: seconds });
  const serverMs = launchCpuMs(server) - serverBefore;
  const generatorMs = ownCpuMs() - ownBefore;
  const answered = result.requests.total;
  const figures: PollFigures = {
    workers,
    rps: answered / (result.duration || seconds),
    p99: result.latency.p99,
    failures: result.errors + result.non2xx + result.mismatches,
    serverUs: (serverMs * 1000) / answered,
    generatorUs: (generatorMs * 1000) / answered,
  };
  console.log(
    `    WORKERS=${workers}: ${fmt(figures.rps, 0)} req/s (${fmt(answered)} in ${fmt(result.duration)} s), p50 ` +
      `${fmt(result.latency.p50)} ms, p99 ${fmt(result.latency.p99)} ms; errors ${result.errors}, non-2xx ${result.non2xx}, ` +
      `wrong bodies ${result.mismatches}; CPU per request: server ${fmt(figures.serverUs, 1)} µs, ` +
      `load generator ${fmt(figures.generatorUs, 1)} µs`,
  );
  return figures;
}

async function pollScaling(bench: Bench, checks: Check[], info: BenchResult['info']): Promise<void> {
  const warmupS = envInt('BENCH_WARMUP_SECONDS', 3, 1, 10);
  const seconds = envInt('BENCH_CLUSTER_POLL_SECONDS', 5, 2, 30);
  console.log(
    `  session poll: ${CONNECTIONS} connections, ${warmupS} s warm-up then ${seconds} s measured, WORKERS=${WORKER_COUNTS.join(', ')}`,
  );
  const results: PollFigures[] = [];
  let customer: { username: string; password: string } | undefined;
  for (const workers of WORKER_COUNTS) {
    const server = await bench.launch(`WORKERS=${workers}`, { WORKERS: String(workers) }, workers);
    try {
      if (!customer) [customer] = await createApprovedCustomers(asDisparo(server, bench.dataDir), 1);
      const cookie = await login(server.url, customer.username, customer.password);
      results.push(await loadPoll(server, workers, cookie, warmupS, seconds));
    } finally {
      await bench.stop(server);
    }
  }
  const [one, two] = results;
  const ratio = two.rps / one.rps;
  // What the machine allows at most: every core busy with the servers and the load generator
  // together, at the CPU per request measured with one worker.
  // s and c: server and load generator CPU per request (µs). One worker uses one core at most, two
  // workers two; autocannon runs on one thread (one core); and all of them together no more than
  // the machine's cores. The ratio the machine allows is the bound with two workers over that with one.
  const cores = availableParallelism();
  const s = one.serverUs;
  const c = one.generatorUs;
  const bound = (workers: number) => Math.min(workers / s, 1 / c, cores / (s + c));
  const reachable = bound(2) / bound(1);
  // Cores the server and the load generator kept busy: the rest went to other work on the machine.
  const busy = (r: PollFigures) => (r.rps * (r.serverUs + r.generatorUs)) / 1e6;
  console.log(
    `  2 workers ÷ 1 worker: ${fmt(ratio)} (floor ${MIN_SCALING}); 4 workers ÷ 1: ${fmt(results[2].rps / one.rps)}. ` +
      `With the load generator on the same ${cores} core(s) at ${fmt(c, 1)} µs a request beside the server's ` +
      `${fmt(s, 1)} µs, this machine allows at most about ${fmt(reachable)}` +
      (reachable < MIN_SCALING ? ': the floor cannot be reached here, whatever the server does' : '') +
      `. Cores kept busy by server + load generator: ${results.map((r) => `${r.workers} worker(s) ${fmt(busy(r))}`).join(', ')} of ${cores}`,
  );
  const note =
    reachable < MIN_SCALING ? ` (at most ~${fmt(reachable)} reachable here: load generator shares the cores)` : '';
  checks.push(
    floor(`poll req/s, 2 workers ÷ 1 worker${note}`, ratio, MIN_SCALING, ''),
    ceiling(
      'poll errors + non-2xx + wrong bodies (1, 2, 4 workers)',
      results.reduce((n, r) => n + r.failures, 0),
      1,
      '',
    ),
  );
  for (const r of results) {
    info[`poll req/s ${r.workers} worker${r.workers > 1 ? 's' : ''}`] = Math.round(r.rps);
    info[`poll p99 ms ${r.workers} worker${r.workers > 1 ? 's' : ''}`] = r.p99;
    info[`server CPU µs/request ${r.workers} worker${r.workers > 1 ? 's' : ''}`] = Number(r.serverUs.toFixed(1));
  }
  info['load generator CPU µs/request (1 worker)'] = Number(one.generatorUs.toFixed(1));
  info['ratio 2 ÷ 1 workers'] = Number(ratio.toFixed(3));
  info['ratio 4 ÷ 1 workers'] = Number((results[2].rps / one.rps).toFixed(3));
  info['ratio 2 ÷ 1 reachable on this machine (estimate)'] = Number(reachable.toFixed(2));
  for (const r of results) info[`cores busy (server + generator) ${r.workers} worker(s)`] = Number(busy(r).toFixed(2));
}

/** The Cloud API as the account's channel: its number's credentials, any hour, a limit it never reaches. */
async function sendThroughCloud(
  url: string,
  cookie: string,
  accessToken: string,
  phoneNumberId: string,
): Promise<void> {
  const conf = await api(url, cookie, 'POST', '/api/whatsapp-business/configure', { accessToken, phoneNumberId });
  if (conf.status !== 200) throw new Error(`configure ${phoneNumberId} answered ${conf.status}: ${conf.text}`);
  const settings = await api(url, cookie, 'PUT', '/api/settings/whatsapp', sendingSettings());
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}: ${settings.text}`);
}

async function takeover(bench: Bench, checks: Check[], info: BenchResult['info']): Promise<void> {
  const recipients = envInt('BENCH_CLUSTER_RECIPIENTS', 5_000, 1_000, 50_000);
  const graph = await new FakeGraphApi().start();
  graph.keepRequests = false;
  graph.phones.set(PHONE_ID, {
    token: TOKEN,
    display_phone_number: '551130007777',
    verified_name: 'Loja Bench Cluster',
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    status: 'CONNECTED',
  });
  try {
    const env = {
      WORKERS: '1',
      GRAPH_API_URL: graph.url,
      WHATSAPP_CLOUD_THROUGHPUT: String(CLOUD_THROUGHPUT),
    };
    // Both at once, as a supervisor starts them.
    const processes = await Promise.all([bench.launch('process a', env, 1), bench.launch('process b', env, 1)]);
    const [a] = processes;
    const cookie = await unlimitedCustomer(asDisparo(a, bench.dataDir), 2);
    await sendThroughCloud(a.url, cookie, TOKEN, PHONE_ID);
    const imported = await uploadContacts(a.url, cookie, 'c.csv', Buffer.from(toCsvText(contactRows(recipients))));
    if (imported.body.imported !== recipients) throw new Error(`imported ${imported.body.imported} of ${recipients}`);
    const created = await api(a.url, cookie, 'POST', '/api/campaigns', {
      name: 'Cluster',
      message: '{Olá|Oi} {{primeiro_nome}}, temos novidades!',
      targetType: 'contacts',
    });
    if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.text}`);
    const id = created.body.id as string;
    const sendRes = await api(a.url, cookie, 'POST', `/api/campaigns/${id}/send`);
    if (sendRes.status !== 200) throw new Error(`send answered ${sendRes.status}: ${sendRes.text}`);
    console.log(
      `  Cloud API campaign to ${fmt(recipients)} recipients at ${CLOUD_THROUGHPUT} msg/s on two processes ` +
        `(pids ${processes.map((p) => p.pid).join(', ')})`,
    );

    // Mid-campaign (a tenth sent), the process holding the account's lane is the one sending: kill it.
    await waitFor('the campaign sending', 60_000, 20, async () =>
      graph.sent.length >= recipients / 10 ? true : undefined,
    );
    const { rows: lanes } = await bench.sql.query<{ owner: string }>(
      'select owner from sending_lanes where lease_until is not null',
    );
    if (lanes.length !== 1) throw new Error(`expected one leased lane, found ${JSON.stringify(lanes)}`);
    const sender = processes.find((p) => lanes[0].owner.includes(`:${p.pid}:`));
    if (!sender) throw new Error(`the lane's owner ${lanes[0].owner} is none of the started processes`);
    const survivor = processes.find((p) => p !== sender) as Launched;
    const killedAt = performance.now();
    sender.child.kill('SIGKILL');
    await sender.exited;
    // Nothing of the killed process can still reach the fake after this (its sockets are closed).
    await sleep(300);
    const atKill = graph.sent.length;
    const { rows: flight } = await bench.sql.query<{ sending: number; sent: number }>(
      `select count(*) filter (where status = 'sending')::int as sending,
              count(*) filter (where sent_at is not null)::int as sent
       from campaign_recipients where campaign_id = $1`,
      [id],
    );
    const inFlight = flight[0].sending;
    console.log(
      `  killed pid ${sender.pid} (SIGKILL) after ${fmt(atKill)} sends (${fmt(flight[0].sent)} recorded as sent, ` +
        `${fmt(inFlight)} in flight); waiting for pid ${survivor.pid}`,
    );
    await waitFor('the survivor sending', 120_000, 10, async () => (graph.sent.length > atKill ? true : undefined));
    const takeoverMs = graph.sentTimes[atKill] - killedAt;
    console.log(`  first send by the survivor ${fmt(takeoverMs, 0)} ms after the kill`);

    // Sessions live in the database: the cookie signed in on either process works on the survivor.
    const done = await waitFor('the campaign completed', 180_000, 250, async () => {
      const c = await api(survivor.url, cookie, 'GET', `/api/campaigns/${id}`);
      return c.body?.status === 'completed' ? c.body : undefined;
    });
    const progress = done.progress as Record<string, number>;
    const to = graph.sent.map((m) => m.to as string);
    const unique = new Set(to).size;
    const duplicates = to.length - unique;
    const missing = recipients - unique;
    const afterKill = graph.sentTimes.slice(atKill);
    const resumedRate =
      afterKill.length > 1 ? ((afterKill.length - 1) * 1000) / (afterKill[afterKill.length - 1] - afterKill[0]) : 0;
    console.log(
      `  completed: ${fmt(to.length)} sends to ${fmt(unique)} recipients, ${fmt(duplicates)} duplicates ` +
        `(${fmt(inFlight)} in flight at the kill), ${fmt(missing)} missing; survivor at ${fmt(resumedRate, 0)} msg/s; ` +
        `progress ${JSON.stringify(progress)}`,
    );
    checks.push(
      ceiling('takeover: kill to the survivor’s first send', takeoverMs, TAKEOVER_MAX_MS, 'ms'),
      // Only what was mid-send at the kill may go twice.
      ceiling(`takeover duplicates (${inFlight} in flight at the kill)`, duplicates, inFlight + 1, ''),
      ceiling('takeover recipients missing', missing, 1, ''),
      ceiling('takeover campaign failed rows', progress.failed ?? 0, 1, ''),
    );
    Object.assign(info, {
      'takeover ms': Math.round(takeoverMs),
      'takeover duplicates': duplicates,
      'takeover in flight at kill': inFlight,
      'takeover missing': missing,
      'takeover sends before kill': atKill,
      'survivor msg/s': Number(resumedRate.toFixed(1)),
      recipients,
    });
  } finally {
    await bench.stopAll();
    await graph.stop();
  }
}

/** One Cloud API number of the many-numbers part: its account, its campaign, what the fake saw. */
interface NumberRun {
  phoneId: string;
  cookie: string;
  campaign: string;
  /** The recipients its contacts normalise to (E.164 digits, as the Graph API receives them). */
  expected: Set<string>;
  /** When each of its sends reached the fake (ms, performance clock), in order. */
  times: number[];
  /** Its sends per recipient. */
  to: Map<string, number>;
}

/**
 * Ten Cloud API numbers on one process: ten approved customers each configure their own number
 * against the fake Graph API, import their contacts and start a campaign, all at once; each send
 * the fake received is attributed to the phone number id of its request path.
 */
async function manyNumbers(bench: Bench, checks: Check[], info: BenchResult['info']): Promise<void> {
  const recipients = envInt('BENCH_CLUSTER_NUMBERS_RECIPIENTS', 2_000, 100, 5_000);
  const graph = await new FakeGraphApi().start();
  // Every request is kept: a send's path carries the phone number id its message went from.
  graph.keepRequests = true;
  const runs: NumberRun[] = [];
  for (let i = 0; i < NUMBERS; i++) {
    const phoneId = `10900000009${String(1000 + i)}`;
    graph.phones.set(phoneId, {
      token: `${TOKEN}-number-${i}`,
      display_phone_number: `5511300${String(9000 + i)}`,
      verified_name: `Loja Bench Número ${i + 1}`,
      quality_rating: 'GREEN',
      code_verification_status: 'VERIFIED',
      status: 'CONNECTED',
    });
    runs.push({ phoneId, cookie: '', campaign: '', expected: new Set(), times: [], to: new Map() });
  }
  try {
    const server = await bench.launch(
      'numbers process',
      { WORKERS: '1', GRAPH_API_URL: graph.url, WHATSAPP_CLOUD_THROUGHPUT: String(NUMBERS_THROUGHPUT) },
      1,
    );
    // Other parts signed up benchcustomer1 and 2: these are benchcustomer101 to 110.
    const customers = await createApprovedCustomers(asDisparo(server, bench.dataDir), NUMBERS, 101);
    for (const [i, run] of runs.entries()) {
      const { cookie } = customers[i];
      run.cookie = cookie;
      await sendThroughCloud(server.url, cookie, `${TOKEN}-number-${i}`, run.phoneId);
      // Each account its own contacts: a send from the wrong number would reach a stranger.
      const rows = contactRows(recipients, i * recipients);
      for (const row of rows.slice(1)) run.expected.add(normalisedBr(row[1]));
      const imported = await uploadContacts(server.url, cookie, 'c.csv', Buffer.from(toCsvText(rows)));
      if (imported.body.imported !== recipients) throw new Error(`imported ${imported.body.imported} of ${recipients}`);
      const created = await api(server.url, cookie, 'POST', '/api/campaigns', {
        name: `Números ${i + 1}`,
        message: '{Olá|Oi} {{primeiro_nome}}, temos novidades!',
        targetType: 'contacts',
      });
      if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.text}`);
      run.campaign = created.body.id as string;
    }
    // The setup's own Graph calls (number lookups) are not sends.
    graph.requests.length = 0;
    const cpuBefore = cpuMs(server.pid);
    const startedAt = performance.now();
    await Promise.all(
      runs.map(async (run) => {
        const res = await api(server.url, run.cookie, 'POST', `/api/campaigns/${run.campaign}/send`);
        if (res.status !== 200) throw new Error(`send answered ${res.status}: ${res.text}`);
      }),
    );
    console.log(
      `  ${NUMBERS} Cloud API numbers on one process (pid ${server.pid}), ${fmt(recipients)} recipients each at ` +
        `${NUMBERS_THROUGHPUT} msg/s a number; the ${NUMBERS} campaigns started in ${fmt(performance.now() - startedAt, 0)} ms`,
    );
    const total = recipients * NUMBERS;
    // At the target rate the campaigns take total ÷ 720 s: allow four times that, and a minute.
    const done = await waitFor(
      'the campaigns completed',
      (total / (NUMBERS * NUMBERS_THROUGHPUT)) * 4_000 + 60_000,
      500,
      async () => {
        const states = await Promise.all(
          runs.map((r) => api(server.url, r.cookie, 'GET', `/api/campaigns/${r.campaign}`)),
        );
        return states.every((s) => s.body?.status === 'completed') ? states.map((s) => s.body) : undefined;
      },
    );
    // Sends answered after the last row was written: none is expected, but let any straggler land.
    await sleep(500);
    const serverCpu = cpuMs(server.pid) - cpuBefore;

    const fromPath = new Map<unknown, string>();
    for (const r of graph.requests) {
      if (r.method === 'POST' && r.path.endsWith('/messages') && r.json) fromPath.set(r.json, r.path.split('/')[2]);
    }
    const byPhone = new Map(runs.map((r) => [r.phoneId, r]));
    let unattributed = 0;
    graph.sent.forEach((message, k) => {
      const run = byPhone.get(fromPath.get(message) ?? '');
      if (!run) {
        unattributed++;
        return;
      }
      run.times.push(graph.sentTimes[k]);
      const to = message.to as string;
      run.to.set(to, (run.to.get(to) ?? 0) + 1);
    });
    let duplicates = 0;
    let missing = 0;
    let strangers = 0;
    for (const run of runs) {
      for (const [to, count] of run.to) {
        duplicates += count - 1;
        if (!run.expected.has(to)) strangers += count;
      }
      for (const to of run.expected) if (!run.to.has(to)) missing++;
    }
    const failed = done.reduce((n, c) => n + ((c.progress as Record<string, number>).failed ?? 0), 0);
    const all = [...graph.sentTimes].sort((a, b) => a - b);
    const aggregate = rateOf(all);
    const perNumber = runs.map((r) => rateOf(r.times));
    // While every number was sending: from the last first send to the first last send.
    const allOnFrom = Math.max(...runs.map((r) => r.times[0] ?? Number.NaN));
    const allOnTo = Math.min(...runs.map((r) => r.times[r.times.length - 1] ?? Number.NaN));
    const allOnSends = all.filter((t) => t >= allOnFrom && t <= allOnTo).length;
    const allOnRate = allOnTo > allOnFrom ? ((allOnSends - 1) * 1000) / (allOnTo - allOnFrom) : Number.NaN;
    const spanS = all.length > 1 ? (all[all.length - 1] - all[0]) / 1000 : 0;
    const firstLag = all.length ? all[0] - startedAt : Number.NaN;
    const stagger = (Math.max(...runs.map((r) => r.times[0])) - Math.min(...runs.map((r) => r.times[0]))) / 1000;
    console.log(
      `  ${fmt(graph.sent.length)} sends in ${fmt(spanS, 1)} s from the first to the last (the first ${fmt(firstLag, 0)} ms ` +
        `after the starts began, the numbers' first sends within ${fmt(stagger, 1)} s of each other): ` +
        `${fmt(aggregate, 0)} msg/s in all, ${fmt(allOnRate, 0)} msg/s while all ${NUMBERS} were sending; per number ` +
        `${fmt(Math.min(...perNumber), 1)} to ${fmt(Math.max(...perNumber), 1)} msg/s ` +
        `(${perNumber.map((r) => fmt(r, 1)).join(', ')}); ${fmt(duplicates)} duplicates, ${fmt(missing)} missing, ` +
        `${fmt(strangers)} to another account's contacts, ${fmt(unattributed)} from no configured number, ${fmt(failed)} failed; ` +
        `server CPU ${fmt(serverCpu / 1000, 1)} s (${fmt((serverCpu * 1000) / Math.max(1, graph.sent.length), 0)} µs a send)`,
    );
    const aggregateFloor = 0.9 * NUMBERS * NUMBERS_THROUGHPUT;
    const perNumberCeiling = NUMBERS_THROUGHPUT * 1.05;
    checks.push(
      floor(
        `${NUMBERS} numbers on one process: aggregate msg/s, first to last send`,
        aggregate,
        aggregateFloor,
        'msg/s',
      ),
      ceiling(
        `${NUMBERS} numbers: fastest number's msg/s (its throughput + 5 %)`,
        Math.max(...perNumber),
        perNumberCeiling,
        'msg/s',
      ),
      ceiling(`${NUMBERS} numbers: duplicates (same number and recipient)`, duplicates, 1, ''),
      ceiling(`${NUMBERS} numbers: recipients missing`, missing, 1, ''),
      ceiling(`${NUMBERS} numbers: sends from the wrong number or none`, strangers + unattributed, 1, ''),
      ceiling(`${NUMBERS} numbers: failed rows`, failed, 1, ''),
    );
    Object.assign(info, {
      'numbers: aggregate msg/s': Number(aggregate.toFixed(1)),
      'numbers: msg/s while all sending': Number(allOnRate.toFixed(1)),
      'numbers: per-number min msg/s': Number(Math.min(...perNumber).toFixed(1)),
      'numbers: per-number max msg/s': Number(Math.max(...perNumber).toFixed(1)),
      'numbers: sends': graph.sent.length,
      'numbers: seconds first to last send': Number(spanS.toFixed(1)),
      'numbers: first sends spread s': Number(stagger.toFixed(2)),
      'numbers: duplicates': duplicates,
      'numbers: missing': missing,
      'numbers: recipients per number': recipients,
      'numbers: server CPU µs per send': Math.round((serverCpu * 1000) / Math.max(1, graph.sent.length)),
    });
  } finally {
    await bench.stopAll();
    await graph.stop();
  }
}

export async function run(): Promise<BenchResult> {
  const parts = (process.env.BENCH_CLUSTER_PARTS || PARTS.join(',')).split(',').map((p) => p.trim());
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length)
    throw new Error(`BENCH_CLUSTER_PARTS: unknown part(s) ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
  const checks: Check[] = [];
  const info: BenchResult['info'] = {};
  const serverUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES;
  const shown = shownUrl(serverUrl);
  const why = await postgresUnreachable(serverUrl);
  if (why) {
    console.log(`  SKIPPED: ${why}; set BENCH_DATABASE_URL to a PostgreSQL server to run it`);
    return { name, checks, info: { skipped: why } };
  }

  const database = await createDatabase(serverUrl, 'disparo_bench_cluster');
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-cluster-'));
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  const bench = new Bench(database, sql, dataDir);
  console.log(`  fresh database ${database.name} on ${shown}`);
  try {
    if (parts.includes('poll')) await pollScaling(bench, checks, info);
    if (parts.includes('takeover')) await takeover(bench, checks, info);
    if (parts.includes('numbers')) await manyNumbers(bench, checks, info);
  } finally {
    await bench.stopAll();
    await sql.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
  printChecks(checks);
  return { name, checks, info };
}
