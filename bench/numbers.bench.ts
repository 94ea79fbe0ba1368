import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDatabase } from '../scripts/launch-server.mjs';
import { FakeGraphApi } from '../server/testing/fake-graph-api';
import { sendingSettings } from '../server/testing/sending-settings';
import { contactRows, toCsvText, unlimitedCustomer, uploadContacts } from './lib/contacts';
import { type GcFigures, probeMemory, probeNodeArgs } from './lib/gc-probe';
import { type BenchResult, type Check, ceiling, floor, fmt, printChecks } from './lib/report';
import { api, DEFAULT_POSTGRES, normalisedBr, postgresUnreachable, rateOf, shownUrl, waitFor } from './lib/sending';
import { cpuMs, type DisparoServer, rssMb, startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: one campaign sent by ten Cloud API numbers of one account. On a fresh PostgreSQL
 * database, one server process (WHATSAPP_CLOUD_THROUGHPUT=80) and a local fake Graph API answering
 * each send after 200 ms; a Premium account adds ten Cloud numbers (`POST /api/connections`),
 * imports 100,000 contacts and starts one campaign with the ten `connectionIds`. Measures the start,
 * the aggregate send rate and each number's own (every send attributed to the phone number id of its
 * request path), checks that every recipient got the message exactly once, and compares the
 * per-number split of `GET /api/campaigns/{id}/numbers` with what the fake received from each number.
 */
export const name = 'numbers';

const NUMBERS = 10;
const THROUGHPUT = 80;
const LATENCY_MS = 200;
const START_MAX_MS = 2_000;
const AGGREGATE_FLOOR = 0.9 * NUMBERS * THROUGHPUT;
const PER_NUMBER_CEILING = THROUGHPUT * 1.05;
const TOKEN = 'EAAG-bench-numbers-token';
/** How long the server idles after the campaign completes before its memory is read after a forced GC. */
const SETTLE_MS = 10_000;
/**
 * The server's V8 heap after a forced GC may grow this much over the campaign: anything kept per send
 * or per recipient (about 250 bytes each at 100,000) shows here, garbage not yet collected does not.
 */
const HEAP_GROWTH_MAX_MB = 25;

interface NumberFigures {
  phoneId: string;
  connectionId: string;
  label: string;
  /** When each send from this number reached the fake (ms, performance clock), in order. */
  arrivals: number[];
}

interface NumbersRoute {
  numbers: Array<{
    connectionId: string;
    label: string;
    queued: number;
    sent: number;
    delivered: number;
    read: number;
    failed: number;
    stopReason: string | null;
  }>;
  unassigned: number;
}

/** The fake Graph API with ten numbers; each send is attributed to its number as it arrives. */
async function fakeGraph(numbers: NumberFigures[]): Promise<FakeGraphApi> {
  const graph = await new FakeGraphApi().start();
  graph.keepRequests = false;
  graph.latencyMs = LATENCY_MS;
  for (const [i, n] of numbers.entries()) {
    graph.phones.set(n.phoneId, {
      token: `${TOKEN}-${i}`,
      display_phone_number: `5511400${String(7000 + i)}`,
      verified_name: `Loja Bench Números ${i + 1}`,
      quality_rating: 'GREEN',
      code_verification_status: 'VERIFIED',
      status: 'CONNECTED',
    });
  }
  const byPhone = new Map(numbers.map((n) => [n.phoneId, n]));
  // An observer, not a fault: it sees the phone number id of each send and lets it through.
  graph.sendFault = (send) => {
    byPhone.get(send.phoneNumberId)?.arrivals.push(performance.now());
    return null;
  };
  return graph;
}

async function measure(
  server: DisparoServer,
  graph: FakeGraphApi,
  sql: pg.Pool,
  numbers: NumberFigures[],
  recipients: number,
  probeFile: string,
  checks: Check[],
  info: BenchResult['info'],
): Promise<void> {
  const cookie = await unlimitedCustomer(server, 401, 'premium');
  for (const [i, n] of numbers.entries()) {
    const res = await api(server.url, cookie, 'POST', '/api/connections', {
      kind: 'cloud',
      label: n.label,
      accessToken: `${TOKEN}-${i}`,
      phoneNumberId: n.phoneId,
    });
    if (res.status !== 201) throw new Error(`POST /api/connections (${n.label}) answered ${res.status}: ${res.text}`);
    n.connectionId = res.body.connection.id as string;
  }
  const settings = await api(server.url, cookie, 'PUT', '/api/settings/whatsapp', sendingSettings('cloud', 100_000));
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}: ${settings.text}`);
  const listed = await api(server.url, cookie, 'GET', '/api/connections');
  const views = (listed.body?.connections ?? []) as Array<{ id: string; status: string; dailyLimit: number }>;
  const notReady = numbers.filter((n) => {
    const v = views.find((c) => c.id === n.connectionId);
    return v?.status !== 'connected' || v.dailyLimit < recipients / NUMBERS;
  });
  if (notReady.length) throw new Error(`numbers not connected or limited: ${JSON.stringify(views)}`);

  // The server's memory after a forced full collection (bench/lib/memory-probe.mjs) before the import,
  // before the send and after the campaign: what it keeps, apart from garbage not yet collected (the
  // RSS peak includes that). The growth is counted from before the import, as the import's own
  // leftovers may still be alive when the send starts.
  const gcSetUp = await probeMemory(server.pid, probeFile);
  const rows = contactRows(recipients);
  const expected = new Set(rows.slice(1).map((r) => normalisedBr(r[1])));
  const importStarted = performance.now();
  const imported = await uploadContacts(server.url, cookie, 'contatos.csv', Buffer.from(toCsvText(rows)));
  if (imported.body.imported !== recipients) throw new Error(`imported ${imported.body.imported} of ${recipients}`);
  const importS = (performance.now() - importStarted) / 1000;
  const created = await api(server.url, cookie, 'POST', '/api/campaigns', {
    name: 'Dez números',
    message: '{Olá|Oi} {{primeiro_nome}}, temos novidades!',
    targetType: 'contacts',
    connectionIds: numbers.map((n) => n.connectionId),
  });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.text}`);
  const id = created.body.id as string;
  // The setup's Graph calls (number lookups) are not sends.
  for (const n of numbers) n.arrivals.length = 0;
  console.log(
    `  ${NUMBERS} Cloud API numbers of one account (premium), ${fmt(recipients)} contacts imported in ${fmt(importS, 1)} s; ` +
      `fake Graph API answering after ${LATENCY_MS} ms, ${THROUGHPUT} msg/s a number`,
  );

  const rssBefore = rssMb(server.pid);
  const gcBefore = await probeMemory(server.pid, probeFile);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(server.pid));
  }, 250);
  const cpuBefore = cpuMs(server.pid);
  const startedAt = performance.now();
  const start = await api(server.url, cookie, 'POST', `/api/campaigns/${id}/send`);
  const startMs = performance.now() - startedAt;
  if (start.status !== 200) throw new Error(`send answered ${start.status}: ${start.text}`);
  console.log(`  start (POST /api/campaigns/{id}/send): ${fmt(startMs, 0)} ms`);

  // At the floor's rate the campaign takes recipients ÷ 720 s: allow four times that, and a minute.
  const numbersRouteMs: number[] = [];
  let done: Record<string, unknown>;
  try {
    done = await waitFor('the campaign completed', (recipients / AGGREGATE_FLOOR) * 4_000 + 60_000, 1_000, async () => {
      const t = performance.now();
      const split = await api(server.url, cookie, 'GET', `/api/campaigns/${id}/numbers`);
      numbersRouteMs.push(performance.now() - t);
      if (split.status !== 200) throw new Error(`GET numbers answered ${split.status}: ${split.text}`);
      const c = await api(server.url, cookie, 'GET', `/api/campaigns/${id}`);
      if (c.body?.status === 'paused' || c.body?.status === 'failed')
        throw new Error(`campaign ${c.body.status}: ${c.text}`);
      return c.body?.status === 'completed' ? (c.body as Record<string, unknown>) : undefined;
    });
  } finally {
    clearInterval(sampler);
  }
  // Sends answered after the last row was written: none is expected, but let any straggler land.
  await new Promise((r) => setTimeout(r, 500));
  const serverCpu = cpuMs(server.pid) - cpuBefore;
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const gcAfter = await probeMemory(server.pid, probeFile);
  const gcLine = (f: GcFigures) =>
    `RSS ${fmt(f.rssMb, 0)} MB, heap ${fmt(f.heapMb, 1)} MB used of ${fmt(f.heapTotalMb, 0)} MB, external ${fmt(f.externalMb, 1)} MB`;
  console.log(
    `  server memory after a forced GC: before the import ${gcLine(gcSetUp)}; before the send ${gcLine(gcBefore)}; ` +
      `${fmt(SETTLE_MS / 1000, 0)} s after the campaign completed ${gcLine(gcAfter)} (since before the import: heap ` +
      `${fmt(gcAfter.heapMb - gcSetUp.heapMb, 1)} MB, RSS ${fmt(gcAfter.rssMb - gcSetUp.rssMb, 0)} MB)`,
  );

  // What the fake received: every recipient once, none outside the audience.
  const perRecipient = new Map<string, number>();
  for (const m of graph.sent) perRecipient.set(m.to as string, (perRecipient.get(m.to as string) ?? 0) + 1);
  const duplicates = graph.sent.length - perRecipient.size;
  let missing = 0;
  for (const to of expected) if (!perRecipient.has(to)) missing++;
  let strangers = 0;
  for (const [to, count] of perRecipient) if (!expected.has(to)) strangers += count;
  const attributed = numbers.reduce((s, n) => s + n.arrivals.length, 0);
  const unattributed = graph.sent.length - attributed;
  const progress = (done.progress ?? {}) as Record<string, number>;
  const failedProgress = progress.failed ?? 0;

  // The rows: every one sent, by one of the ten numbers.
  const { rows: byRow } = await sql.query<{ connection_id: string | null; rows: number; sent: number; failed: number }>(
    `select connection_id, count(*)::int as rows, count(*) filter (where sent_at is not null)::int as sent,
            count(*) filter (where status = 'failed')::int as failed
     from campaign_recipients where campaign_id = $1 group by connection_id`,
    [id],
  );
  const ids = new Set(numbers.map((n) => n.connectionId));
  const failedRows = byRow.reduce((s, r) => s + r.failed, 0);
  const rowsElsewhere = byRow
    .filter((r) => !r.connection_id || !ids.has(r.connection_id))
    .reduce((s, r) => s + r.rows, 0);
  const rowsUnsent = byRow.reduce((s, r) => s + r.rows - r.sent, 0);

  // The per-number split as the API reports it, against the fake's count of each number's sends.
  const split = await api(server.url, cookie, 'GET', `/api/campaigns/${id}/numbers`);
  if (split.status !== 200) throw new Error(`GET numbers answered ${split.status}: ${split.text}`);
  const route = split.body as NumbersRoute;
  let splitMismatch = 0;
  for (const n of numbers) {
    const reported = route.numbers.find((r) => r.connectionId === n.connectionId);
    splitMismatch += Math.abs((reported?.sent ?? 0) - n.arrivals.length);
  }
  splitMismatch += route.numbers.filter((r) => !ids.has(r.connectionId)).reduce((s, r) => s + r.sent, 0);
  const splitSent = numbers.map((n) => route.numbers.find((r) => r.connectionId === n.connectionId)?.sent ?? 0);

  // Rates: the aggregate at the fake (answers), each number from its first send to its last.
  const aggregate = rateOf(graph.sentTimes);
  const perNumber = numbers.map((n) => rateOf(n.arrivals));
  const firsts = numbers.map((n) => n.arrivals[0] ?? Number.NaN);
  const lasts = numbers.map((n) => n.arrivals[n.arrivals.length - 1] ?? Number.NaN);
  const allOnFrom = Math.max(...firsts);
  const allOnTo = Math.min(...lasts);
  const allOnSends = numbers.reduce((s, n) => s + n.arrivals.filter((t) => t >= allOnFrom && t <= allOnTo).length, 0);
  const allOnRate = allOnTo > allOnFrom ? ((allOnSends - 1) * 1000) / (allOnTo - allOnFrom) : Number.NaN;
  const times = graph.sentTimes;
  const spanS = times.length > 1 ? (times[times.length - 1] - times[0]) / 1000 : 0;
  const firstLag = Math.min(...firsts) - startedAt;
  const stagger = (Math.max(...firsts) - Math.min(...firsts)) / 1000;
  const endSpread = (Math.max(...lasts) - Math.min(...lasts)) / 1000;
  const routeLatency = summarize(numbersRouteMs);

  for (const [i, n] of numbers.entries()) {
    const reported = route.numbers.find((r) => r.connectionId === n.connectionId);
    console.log(
      `    ${n.label.padEnd(10)} ${fmt(n.arrivals.length).padStart(7)} sends at the fake, ${fmt(perNumber[i], 1)} msg/s ` +
        `over ${fmt((lasts[i] - firsts[i]) / 1000, 1)} s; GET numbers: sent ${fmt(reported?.sent ?? 0)}, ` +
        `queued ${fmt(reported?.queued ?? 0)}, failed ${fmt(reported?.failed ?? 0)}`,
    );
  }
  console.log(
    `  ${fmt(graph.sent.length)} sends in ${fmt(spanS, 1)} s, first to last (the first reached the fake ${fmt(firstLag, 0)} ms after ` +
      `the start began, the numbers' first sends within ${fmt(stagger, 2)} s of each other, their last within ` +
      `${fmt(endSpread, 2)} s): ${fmt(aggregate, 0)} msg/s in all, ${fmt(allOnRate, 0)} msg/s while all ${NUMBERS} sent; ` +
      `per number ${fmt(Math.min(...perNumber), 1)} to ${fmt(Math.max(...perNumber), 1)} msg/s; split ` +
      `${fmt(Math.min(...splitSent))} to ${fmt(Math.max(...splitSent))} sends a number (unassigned ${fmt(route.unassigned)}); ` +
      `${fmt(duplicates)} duplicates, ${fmt(missing)} missing, ${fmt(strangers)} to no contact, ${fmt(unattributed)} from ` +
      `no number of the account, ${fmt(failedRows)} failed rows (progress: ${fmt(failedProgress)}); server CPU ` +
      `${fmt(serverCpu / 1000, 1)} s (${fmt((serverCpu * 1000) / Math.max(1, graph.sent.length), 0)} µs a send), RSS ` +
      `+${fmt(rssPeak - rssBefore, 0)} MB; GET numbers while sending p50 ${fmt(routeLatency.p50, 1)} ms, max ` +
      `${fmt(routeLatency.max, 1)} ms`,
  );

  checks.push(
    ceiling(`campaign start, ${fmt(recipients)} recipients on ${NUMBERS} numbers`, startMs, START_MAX_MS, 'ms'),
    floor(`${NUMBERS} numbers, one campaign: aggregate msg/s, first to last send`, aggregate, AGGREGATE_FLOOR, 'msg/s'),
    ceiling(
      `${NUMBERS} numbers, one campaign: fastest number's msg/s (its throughput + 5 %)`,
      Math.max(...perNumber),
      PER_NUMBER_CEILING,
      'msg/s',
    ),
    ceiling('one campaign, 10 numbers: duplicates (same recipient sent twice)', duplicates, 1, ''),
    ceiling('one campaign, 10 numbers: recipients missing', missing, 1, ''),
    ceiling('one campaign, 10 numbers: failed rows', Math.max(failedRows, failedProgress), 1, ''),
    ceiling('one campaign, 10 numbers: sends to no contact or from no chosen number', strangers + unattributed, 1, ''),
    ceiling('one campaign, 10 numbers: rows unsent or without a chosen number', rowsUnsent + rowsElsewhere, 1, ''),
    ceiling('one campaign, 10 numbers: GET numbers split ≠ sends at the fake', splitMismatch, 1, ''),
    ceiling(
      'one campaign, 10 numbers: server heap growth after a forced GC',
      gcAfter.heapMb - gcSetUp.heapMb,
      HEAP_GROWTH_MAX_MB,
      'MB',
    ),
  );
  Object.assign(info, {
    recipients,
    'start ms': Math.round(startMs),
    'aggregate msg/s': Number(aggregate.toFixed(1)),
    'msg/s while all sending': Number(allOnRate.toFixed(1)),
    'per-number min msg/s': Number(Math.min(...perNumber).toFixed(1)),
    'per-number max msg/s': Number(Math.max(...perNumber).toFixed(1)),
    'split min sends': Math.min(...splitSent),
    'split max sends': Math.max(...splitSent),
    'split (GET numbers)': splitSent.join(' / '),
    'seconds first to last send': Number(spanS.toFixed(1)),
    'first send after start ms': Math.round(firstLag),
    'first sends spread s': Number(stagger.toFixed(2)),
    'last sends spread s': Number(endSpread.toFixed(2)),
    duplicates,
    missing,
    'failed rows': failedRows,
    'retried sends at the fake': [...graph.attempts.values()].reduce((s, a) => s + a - 1, 0),
    'import s': Number(importS.toFixed(1)),
    'server CPU µs per send': Math.round((serverCpu * 1000) / Math.max(1, graph.sent.length)),
    'server RSS growth MB': Math.round(rssPeak - rssBefore),
    'server heap MB after GC before import': Number(gcSetUp.heapMb.toFixed(1)),
    'server heap MB after GC before send': Number(gcBefore.heapMb.toFixed(1)),
    'server heap MB after GC after campaign': Number(gcAfter.heapMb.toFixed(1)),
    'server heap growth MB after GC': Number((gcAfter.heapMb - gcSetUp.heapMb).toFixed(1)),
    'server RSS growth MB after GC': Math.round(gcAfter.rssMb - gcSetUp.rssMb),
    'GET numbers p95 ms while sending': Number(routeLatency.p95.toFixed(1)),
  });
}

export async function run(): Promise<BenchResult> {
  const recipients = envInt('BENCH_NUMBERS_RECIPIENTS', 100_000, 1_000, 200_000);
  const checks: Check[] = [];
  const info: BenchResult['info'] = {};
  const serverUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES;
  const why = await postgresUnreachable(serverUrl);
  if (why) {
    console.log(`  SKIPPED: ${why}; set BENCH_DATABASE_URL to a PostgreSQL server to run it`);
    return { name, checks, info: { skipped: why } };
  }
  const numbers: NumberFigures[] = Array.from({ length: NUMBERS }, (_, i) => ({
    phoneId: `10900000008${String(1000 + i)}`,
    connectionId: '',
    label: `Número ${i + 1}`,
    arrivals: [],
  }));
  const database = await createDatabase(serverUrl, 'disparo_bench_numbers');
  console.log(`  fresh database ${database.name} on ${shownUrl(serverUrl)}`);
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  const probeDir = mkdtempSync(join(tmpdir(), 'disparo-bench-numbers-'));
  const probeFile = join(probeDir, 'memory-probe.json');
  let graph: FakeGraphApi | undefined;
  try {
    graph = await fakeGraph(numbers);
    const env = {
      DATABASE_URL: database.url,
      GRAPH_API_URL: graph.url,
      WHATSAPP_CLOUD_THROUGHPUT: String(THROUGHPUT),
      BENCH_MEMORY_PROBE_FILE: probeFile,
      ...(process.env.BENCH_MEMORY_PROBE_SNAPSHOTS
        ? { BENCH_MEMORY_PROBE_SNAPSHOTS: process.env.BENCH_MEMORY_PROBE_SNAPSHOTS }
        : {}),
    };
    const fake = graph;
    await withServer(
      () => startDisparo(undefined, env, probeNodeArgs()),
      (server) => measure(server, fake, sql, numbers, recipients, probeFile, checks, info),
    );
  } finally {
    await sql.end().catch(() => undefined);
    await graph?.stop();
    await database.drop();
    rmSync(probeDir, { recursive: true, force: true });
  }
  printChecks(checks);
  return { name, checks, info };
}
