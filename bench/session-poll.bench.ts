import autocannon from 'autocannon';
import { createApprovedCustomers } from './lib/accounts';
import { expectStatus, request } from './lib/http';
import { type BenchResult, ceiling, floor, fmt, printChecks } from './lib/report';
import { type ChildServer, cpuMs, rssMb, startBareServer, startDisparo } from './lib/server';
import { envInt, median } from './lib/stats';

/**
 * Benchmark 1: the 2-second WhatsApp-session poll of every signed-in browser.
 * Authenticated `GET /api/whatsapp-session` as an approved customer must reach at least half the
 * requests per second of a bare node:http server answering the same JSON, with p99 under 25 ms and
 * no errors or non-2xx answers.
 *
 * Both servers run at once as child processes (the idle one costs nothing) and are loaded in turn,
 * in short alternating slices (bare, Disparo, Disparo, bare, …), so that a burst of other work on
 * the machine weighs on both sides alike instead of deciding the ratio.
 */
export const name = 'session-poll';

const PATH = '/api/whatsapp-session';
const EXPECTED_BODY = JSON.stringify({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
const CONNECTIONS = 50;
// autocannon checks its deadline on its 1-second sampling tick, so slices are whole seconds.
const SLICE_SECONDS = 2;
const MIN_RATIO = 0.5;
const MAX_P99_MS = 25;

/** What autocannon answers with `skipAggregateResult` (latencies still encoded, mergeable). */
interface RawResult {
  totalCompletedRequests: number;
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  statusCodeStats: Record<string, { count?: number }>;
}

const aggregateResult = (
  autocannon as unknown as {
    aggregateResult(results: RawResult[], opts: autocannon.Options): autocannon.Result;
  }
).aggregateResult;

function options(url: string, seconds: number, cookie?: string): autocannon.Options {
  return {
    url: `${url}${PATH}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: cookie ? { cookie } : undefined,
    expectBody: EXPECTED_BODY,
    timeout: 10,
  };
}

async function slice(target: Target, seconds: number): Promise<RawResult> {
  const cpuBefore = cpuMs(target.server.pid);
  const raw = (await autocannon({
    ...options(target.server.url, seconds, target.cookie),
    skipAggregateResult: true,
  })) as unknown as RawResult;
  target.slices.push(raw);
  target.cpuMs += cpuMs(target.server.pid) - cpuBefore;
  return raw;
}

interface Target {
  label: string;
  server: ChildServer;
  cookie?: string;
  slices: RawResult[];
  /** Server CPU time spent during the measured slices. */
  cpuMs: number;
}

interface LoadFigures {
  rps: number;
  total: number;
  seconds: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  statusCodes: string;
  /** Server CPU time per answered request, in µs: steadier than req/s when the machine is busy. */
  cpuUsPerRequest: number;
}

function figures(target: Target): LoadFigures {
  // aggregateResult adds status counts into the first slice's objects: give it copies.
  const copies = target.slices.map((s) => ({ ...s, statusCodeStats: structuredClone(s.statusCodeStats) }));
  const merged = aggregateResult(copies, options(target.server.url, SLICE_SECONDS, target.cookie));
  const total = target.slices.reduce((n, s) => n + s.totalCompletedRequests, 0);
  const seconds = target.slices.reduce((n, s) => n + s.duration, 0);
  const sum = (key: 'errors' | 'timeouts' | 'mismatches' | 'non2xx') => target.slices.reduce((n, s) => n + s[key], 0);
  const codes = new Map<string, number>();
  for (const s of target.slices) {
    for (const [code, stat] of Object.entries(s.statusCodeStats))
      codes.set(code, (codes.get(code) ?? 0) + (stat.count ?? 0));
  }
  return {
    rps: total / seconds,
    total,
    seconds,
    p50: merged.latency.p50,
    p90: merged.latency.p90,
    p99: merged.latency.p99,
    max: merged.latency.max,
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    non2xx: sum('non2xx'),
    mismatches: sum('mismatches'),
    statusCodes: [...codes].map(([code, count]) => `${code}×${count}`).join(' ') || 'none',
    cpuUsPerRequest: (target.cpuMs * 1000) / total,
  };
}

function describeLoad(label: string, f: LoadFigures): string {
  return (
    `  ${label}: ${fmt(f.rps, 0)} req/s (${fmt(f.total)} requests in ${fmt(f.seconds)} s), latency p50 ${fmt(f.p50)} ms, ` +
    `p90 ${fmt(f.p90)} ms, p99 ${fmt(f.p99)} ms, max ${fmt(f.max)} ms; errors ${f.errors} (timeouts ${f.timeouts}), ` +
    `non-2xx ${f.non2xx}, wrong bodies ${f.mismatches}; status ${f.statusCodes}; ` +
    `server CPU ${fmt(f.cpuUsPerRequest, 1)} µs/request`
  );
}

/** Signs in a freshly approved customer and checks the poll answers it (and refuses anonymous calls). */
async function customerCookie(server: Awaited<ReturnType<typeof startDisparo>>): Promise<string> {
  const [customer] = await createApprovedCustomers(server, 1);
  const probe = expectStatus(await request(server.url, 'GET', PATH, { cookie: customer.cookie }), 200, `GET ${PATH}`);
  if (probe.body !== EXPECTED_BODY) throw new Error(`GET ${PATH} answered ${probe.body}, expected ${EXPECTED_BODY}`);
  const anonymous = await request(server.url, 'GET', PATH);
  if (anonymous.status !== 401)
    throw new Error(`GET ${PATH} without a cookie answered ${anonymous.status}, expected 401`);
  console.log(`  approved customer ${customer.username} signed in; ${PATH} answers ${probe.body}`);
  return customer.cookie;
}

export async function run(): Promise<BenchResult> {
  const seconds = envInt('BENCH_POLL_SECONDS', 10, SLICE_SECONDS, 30);
  const warmupS = envInt('BENCH_WARMUP_SECONDS', 2, 1, 10);
  const rounds = Math.ceil(seconds / SLICE_SECONDS);

  const servers: ChildServer[] = [];
  try {
    const bareServer = await startBareServer();
    servers.push(bareServer);
    const disparoServer = await startDisparo();
    servers.push(disparoServer);
    const bare: Target = { label: 'bare node:http', server: bareServer, slices: [], cpuMs: 0 };
    const disparo: Target = {
      label: 'disparo',
      server: disparoServer,
      cookie: await customerCookie(disparoServer),
      slices: [],
      cpuMs: 0,
    };

    console.log(`  warm-up: ${warmupS} s each at ${CONNECTIONS} connections`);
    for (const t of [bare, disparo]) {
      await autocannon(options(t.server.url, warmupS, t.cookie));
    }
    console.log(
      `  measuring: ${rounds} rounds of ${SLICE_SECONDS} s per server, alternating, ${CONNECTIONS} connections`,
    );
    const roundRatios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? [bare, disparo] : [disparo, bare];
      const rps = new Map<Target, number>();
      for (const t of order) {
        const s = await slice(t, SLICE_SECONDS);
        rps.set(t, s.totalCompletedRequests / s.duration);
      }
      const b = rps.get(bare) ?? Number.NaN;
      const d = rps.get(disparo) ?? Number.NaN;
      roundRatios.push(d / b);
      console.log(`    round ${r + 1}: bare ${fmt(b, 0)} req/s, disparo ${fmt(d, 0)} req/s, ratio ${fmt(d / b)}`);
    }
    const rss = rssMb(disparoServer.pid);

    const bareFigures = figures(bare);
    const disparoFigures = figures(disparo);
    console.log(describeLoad(bare.label, bareFigures));
    console.log(describeLoad(disparo.label, disparoFigures));

    // The checked ratio is the median of the rounds' ratios: each round loads both servers back to back,
    // so a burst of unrelated work on the machine spoils one round instead of skewing the totals.
    const ratio = median(roundRatios);
    const totalsRatio = disparoFigures.rps / bareFigures.rps;
    const failures = disparoFigures.errors + disparoFigures.non2xx + disparoFigures.mismatches;
    const baselineFailures = bareFigures.errors + bareFigures.non2xx + bareFigures.mismatches;
    const checks = [
      floor('poll req/s ÷ bare node:http req/s (median of rounds)', ratio, MIN_RATIO, ''),
      ceiling('poll p99 latency', disparoFigures.p99, MAX_P99_MS, 'ms'),
      ceiling('poll errors + non-2xx + wrong bodies', failures, 1, ''),
      // A broken baseline would make the ratio meaningless.
      ceiling('baseline errors + non-2xx + wrong bodies', baselineFailures, 1, ''),
    ];
    console.log(
      `  ratio: median of rounds ${fmt(ratio)}, totals ${fmt(disparoFigures.rps, 0)} / ${fmt(bareFigures.rps, 0)} = ` +
        `${fmt(totalsRatio)} (floor ${MIN_RATIO}); ` +
        `p99 disparo ${fmt(disparoFigures.p99)} ms vs bare ${fmt(bareFigures.p99)} ms; ` +
        `disparo RSS after load ${Number.isFinite(rss) ? `${Math.round(rss)} MB` : 'n/a'}`,
    );
    console.log(
      `  server CPU per request: disparo ${fmt(disparoFigures.cpuUsPerRequest, 1)} µs, bare ${fmt(bareFigures.cpuUsPerRequest, 1)} µs ` +
        `(bare ÷ disparo ${fmt(bareFigures.cpuUsPerRequest / disparoFigures.cpuUsPerRequest)}, informative)`,
    );
    printChecks(checks);
    return {
      name,
      checks,
      info: {
        'disparo req/s': Math.round(disparoFigures.rps),
        'bare req/s': Math.round(bareFigures.rps),
        'ratio of totals': Number(totalsRatio.toFixed(3)),
        'round ratios': roundRatios.map((r) => r.toFixed(2)).join(' '),
        'disparo p50 ms': disparoFigures.p50,
        'disparo p99 ms': disparoFigures.p99,
        'bare p99 ms': bareFigures.p99,
        'disparo server CPU µs/request': Number(disparoFigures.cpuUsPerRequest.toFixed(1)),
        'bare server CPU µs/request': Number(bareFigures.cpuUsPerRequest.toFixed(1)),
        'disparo RSS after load MB': Number.isFinite(rss) ? Math.round(rss) : 'n/a',
        'seconds per server': Number(disparoFigures.seconds.toFixed(2)),
        connections: CONNECTIONS,
      },
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}
