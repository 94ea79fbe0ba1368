import { performance } from 'node:perf_hooks';
import { type Customer, createApprovedCustomers, SESSION_COOKIE } from './lib/accounts';
import { cookieFrom, request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { startDisparo, withServer } from './lib/server';
import { envInt, type LatencySummary, summarize } from './lib/stats';

/**
 * Benchmark 2: sign-in latency. The server runs at most two argon2 hashes at once, so the load is two
 * closed-loop clients, each signing in one customer over and over (never more than two logins in
 * flight). Every login's latency is measured from the client; p95 must stay under 100 ms.
 */
export const name = 'login';

const CONCURRENCY = 2;
const MAX_P95_MS = 100;
const MAX_ERRORS_BEFORE_ABORT = 10;

interface Stream {
  latencies: number[];
  errors: string[];
}

async function loginOnce(baseUrl: string, customer: Customer, stream: Stream): Promise<void> {
  const started = performance.now();
  try {
    const res = await request(baseUrl, 'POST', '/api/auth/login', {
      json: { username: customer.username, password: customer.password },
    });
    const elapsed = performance.now() - started;
    if (res.status !== 200) stream.errors.push(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    else if (!cookieFrom(res, SESSION_COOKIE)) stream.errors.push(`no ${SESSION_COOKIE} cookie`);
    else stream.latencies.push(elapsed);
  } catch (err) {
    stream.errors.push((err as Error).message);
  }
}

/** `clients` loops running at once, each doing `perClient` sequential logins of its own customer. */
async function closedLoop(
  baseUrl: string,
  customers: Customer[],
  clients: number,
  perClient: number,
): Promise<Stream & { seconds: number }> {
  const stream: Stream = { latencies: [], errors: [] };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient && stream.errors.length < MAX_ERRORS_BEFORE_ABORT; i++) {
        await loginOnce(baseUrl, customers[c % customers.length], stream);
      }
    }),
  );
  return { ...stream, seconds: (performance.now() - started) / 1000 };
}

const line = (s: LatencySummary) =>
  `p50 ${fmt(s.p50)} ms, p95 ${fmt(s.p95)} ms, p99 ${fmt(s.p99)} ms (min ${fmt(s.min)}, mean ${fmt(s.mean)}, max ${fmt(s.max)})`;

export async function run(): Promise<BenchResult> {
  const perClient = envInt('BENCH_LOGIN_PAIRS', 200, 10, 1000);
  return withServer(startDisparo, async (server) => {
    const customers = await createApprovedCustomers(server, CONCURRENCY);

    console.log(`  warm-up: ${CONCURRENCY} × 10 logins`);
    const warm = await closedLoop(server.url, customers, CONCURRENCY, 10);
    if (warm.errors.length) throw new Error(`login fails during warm-up: ${warm.errors[0]}`);

    // For reference: one login at a time, i.e. the cost of a single hash plus the request.
    const single = await closedLoop(server.url, customers, 1, 20);
    const singleSummary = summarize(single.latencies);
    console.log(`  1 login at a time (${single.latencies.length} logins, reference): ${line(singleSummary)}`);

    console.log(`  measuring: ${CONCURRENCY} concurrent clients × ${perClient} sequential logins`);
    const measured = await closedLoop(server.url, customers, CONCURRENCY, perClient);
    const s = summarize(measured.latencies);
    const perSecond = measured.latencies.length / measured.seconds;
    console.log(
      `  ${CONCURRENCY} at a time (${s.count} logins in ${fmt(measured.seconds)} s, ${fmt(perSecond)} logins/s): ${line(s)}`,
    );
    if (measured.errors.length) console.log(`  errors: ${measured.errors.length}, first: ${measured.errors[0]}`);

    const checks = [
      ceiling('login p95 latency (2 concurrent)', s.p95, MAX_P95_MS, 'ms'),
      ceiling('login errors', measured.errors.length, 1, ''),
    ];
    printChecks(checks);
    return {
      name,
      checks,
      info: {
        'p50 ms': Number(s.p50.toFixed(2)),
        'p95 ms': Number(s.p95.toFixed(2)),
        'p99 ms': Number(s.p99.toFixed(2)),
        'logins/s': Number(perSecond.toFixed(1)),
        'single-login p50 ms': Number(singleSummary.p50.toFixed(2)),
        logins: s.count,
      },
    };
  });
}
