import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { cloudApiHealthResponse } from '../contract/cloud-api';
import { POLL_INTERVALS_MS } from '../contract/constants';
import { todayMetricsResponse } from '../contract/metrics';
import { NOTIFICATIONS_POLL_MS, unreadCountResponse } from '../contract/notifications';
import { activeUsersResponse, onlineCountResponse } from '../contract/presence';
import { whatsappSessionResponse } from '../contract/whatsapp';
import { whatsappChannelResponse } from '../contract/whatsapp-connection';
import { login } from './lib/accounts';
import { expectStatus, request } from './lib/http';
import { type BenchResult, ceiling, floor, fmt, printChecks } from './lib/report';
import { cpuMs, type DisparoServer, rssMb, startBareServer, startDisparo } from './lib/server';
import { envInt, type LatencySummary, summarize } from './lib/stats';

/**
 * Benchmark: 500 signed-in people with the dashboard open. Each one polls what the web app polls,
 * at the web app's own intervals (taken from the same constants), from a random moment on, for
 * 60 s: the WhatsApp session every 2 s, active users and the Cloud API health every 10 s, the
 * online count, the unread notifications and the sending channel every 30 s, the header's figures
 * of the day every 60 s. A few sessions of the administrator poll the same, platform-wide.
 *
 * Every answer must be 200 and match its contract schema, p99 under 100 ms over the whole run. The
 * server's resident memory is read from /proc every 5 s: the last third of the run may not hold
 * more than 50 MB over the first. Through the server's inspector (loopback only), a full garbage
 * collection runs before the load (the sign-up's garbage would otherwise blur the RSS figures) and
 * after it: the live JS heap may not grow by 20 MB or more. A bare node:http server polled during the
 * same seconds shows what the machine alone adds to the latencies.
 *
 * Knobs: BENCH_USERS_COUNT (500), BENCH_USERS_POLL_SECONDS (60), BENCH_USERS_ADMIN_SESSIONS (3),
 * BENCH_USERS_SOCKETS (128, the client's keep-alive pool shared by every user).
 */
export const name = 'users-polling';

interface Poll {
  path: string;
  intervalMs: number;
  /** Where the web app polls it. */
  where: string;
  schema: z.ZodType;
}

const POLLS: Poll[] = [
  {
    path: '/api/whatsapp-session',
    intervalMs: POLL_INTERVALS_MS.whatsappSession,
    where: 'sidebar WhatsApp status, every page',
    schema: whatsappSessionResponse,
  },
  {
    path: '/api/users/active',
    intervalMs: POLL_INTERVALS_MS.activeUsers,
    where: "dashboard 'Verificação' tab",
    schema: activeUsersResponse,
  },
  {
    path: '/api/whatsapp-business/health',
    intervalMs: POLL_INTERVALS_MS.businessHealth,
    where: "dashboard 'API WhatsApp' tab",
    schema: cloudApiHealthResponse,
  },
  {
    path: '/api/users/online-count',
    intervalMs: POLL_INTERVALS_MS.onlineCount,
    where: "dashboard 'Verificação' tab",
    schema: onlineCountResponse,
  },
  {
    path: '/api/notifications/unread-count',
    intervalMs: NOTIFICATIONS_POLL_MS,
    where: 'header bell',
    schema: unreadCountResponse,
  },
  {
    // web/lib/queries/get-whatsapp-channel.ts
    path: '/api/whatsapp/channel',
    intervalMs: 30_000,
    where: "dashboard 'Visão Geral', WhatsApp card",
    schema: whatsappChannelResponse,
  },
  {
    path: '/api/metrics/today',
    intervalMs: POLL_INTERVALS_MS.todayFigures,
    where: "header 'Enviadas hoje' / 'Taxa de entrega'",
    schema: todayMetricsResponse,
  },
];

const SAMPLE_EVERY_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** How many account requests (register, approve, sign in) the setup keeps in flight. */
const SETUP_CONCURRENCY = 8;
const MAX_RSS_GROWTH_MB = 50;
/** What the minute may leave behind on the server's heap once collected: bounded caches only. */
const MAX_HEAP_GROWTH_MB = 20;
const MAX_P99_MS = 100;
const MIN_DELIVERED = 0.99;
/** The start, when every session is read from the database at once, is left out of the steady figures. */
const STEADY_AFTER_MS = 10_000;

interface User {
  label: string;
  cookie: string;
  admin: boolean;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; answers the results in order. */
async function inPool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * `count` approved customers, signed in: each registers (pending), the administrator approves it,
 * then it signs in, as in production. The steps run in batches (one listing of the accounts for all)
 * so that the server's two password hashes at a time are the only limit.
 */
async function signedInCustomers(server: DisparoServer, count: number): Promise<User[]> {
  const base = server.url;
  const adminCookie = await login(base, server.admin.username, server.admin.password);
  const people = Array.from({ length: count }, (_, i) => ({
    username: `pollcustomer${i + 1}`,
    password: `poll-customer-password-${i + 1}`,
    n: i + 1,
  }));
  await inPool(people, SETUP_CONCURRENCY, async (p) => {
    expectStatus(
      await request(base, 'POST', '/api/auth/register', {
        json: {
          name: `Cliente Painel ${p.n}`,
          email: `${p.username}@bench.example`,
          username: p.username,
          password: p.password,
          whatsappNumber: `+55 11 9${String(p.n).padStart(4, '0')}-${String(p.n % 10_000).padStart(4, '0')}`,
        },
      }),
      201,
      `register ${p.username}`,
    );
  });
  const listed = JSON.parse(
    expectStatus(await request(base, 'GET', '/api/admin/users', { cookie: adminCookie }), 200, 'list users as admin')
      .body,
  ) as Array<{ id: string; username: string }>;
  const ids = new Map(listed.map((u) => [u.username, u.id]));
  return inPool(people, SETUP_CONCURRENCY, async (p) => {
    const id = ids.get(p.username);
    if (!id) throw new Error(`registered ${p.username} is not in GET /api/admin/users`);
    expectStatus(
      await request(base, 'PATCH', `/api/admin/users/${id}`, { json: { isActive: true }, cookie: adminCookie }),
      200,
      `approve ${p.username}`,
    );
    const cookie = await login(base, p.username, p.password);
    const me = JSON.parse(
      expectStatus(await request(base, 'GET', '/api/auth/me', { cookie }), 200, `GET /api/auth/me as ${p.username}`)
        .body,
    ) as { accountType: string; isActive: boolean };
    if (me.accountType !== 'active' || !me.isActive) {
      throw new Error(`${p.username} is not an active customer after approval: ${JSON.stringify(me)}`);
    }
    return { label: p.username, cookie, admin: false };
  });
}

/** A small seeded generator (mulberry32), so that two runs start their polls at the same moments. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Just enough of a WebSocket client (RFC 6455: one text frame out, masked; frames in) to send the
 * server's inspector two DevTools commands: a full garbage collection and the JS heap's size.
 */
async function inspectorCall(wsUrl: string, method: string): Promise<Record<string, number>> {
  const url = new URL(wsUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  try {
    await once(socket, 'connect');
    socket.write(
      `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    let buffer = Buffer.alloc(0);
    let failed: Error | undefined;
    let wake: (() => void) | undefined;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      wake?.();
    });
    socket.on('error', (err) => {
      failed = err;
      wake?.();
    });
    socket.on('close', () => {
      failed ??= new Error('the inspector closed the connection');
      wake?.();
    });
    /** Waits for more bytes. */
    const read = () =>
      new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        wake = () => {
          wake = undefined;
          if (failed) reject(failed);
          else resolve();
        };
      });
    while (!buffer.includes('\r\n\r\n')) await read();
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (!buffer.subarray(0, headEnd).toString().startsWith('HTTP/1.1 101')) {
      throw new Error(`the inspector refused the connection: ${buffer.subarray(0, headEnd)}`);
    }
    buffer = buffer.subarray(headEnd + 4);

    const payload = Buffer.from(JSON.stringify({ id: 1, method }));
    const mask = randomBytes(4);
    const header =
      payload.length < 126
        ? Buffer.from([0x81, 0x80 | payload.length])
        : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
    socket.write(Buffer.concat([header, mask, payload.map((b, i) => b ^ mask[i % 4])]));

    for (;;) {
      // A frame from the server: opcode, unmasked length (7 bits, or 16 or 64 bits after), payload.
      while (buffer.length < 2) await read();
      let length = buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        while (buffer.length < 4) await read();
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        while (buffer.length < 10) await read();
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      while (buffer.length < offset + length) await read();
      const opcode = buffer[0] & 0x0f;
      const body = buffer.subarray(offset, offset + length).toString('utf8');
      buffer = buffer.subarray(offset + length);
      if (opcode === 0x8) throw new Error('the inspector closed the connection');
      if (opcode !== 0x1) continue;
      const message = JSON.parse(body) as { id?: number; result?: Record<string, number>; error?: unknown };
      if (message.id !== 1) continue;
      if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
      return message.result ?? {};
    }
  } finally {
    socket.destroy();
  }
}

/** A full collection in the server, then its live JS heap in MB. */
async function liveHeapMb(wsUrl: string): Promise<number> {
  await inspectorCall(wsUrl, 'HeapProfiler.collectGarbage');
  const usage = await inspectorCall(wsUrl, 'Runtime.getHeapUsage');
  return usage.usedSize / 1024 / 1024;
}

/**
 * How long the server's main thread has waited for a CPU while ready to run, in ms (Linux
 * schedstat): what other work on the machine took from it. NaN elsewhere.
 */
function runQueueWaitMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

interface Outcome {
  status: number;
  body: string;
  ms: number;
  error?: string;
}

interface Sample {
  atS: number;
  rssMb: number;
  /** Server CPU over the previous interval, in % of one core. */
  cpuPct: number;
  /** Share of the previous interval the server's main thread waited for a CPU, in %. */
  waitPct: number;
  requests: number;
  /** p99 of the answers since the previous sample. */
  p99: number;
}

export async function run(): Promise<BenchResult> {
  const userCount = envInt('BENCH_USERS_COUNT', 500, 1, 5_000);
  const seconds = envInt('BENCH_USERS_POLL_SECONDS', 60, 10, 600);
  const adminSessions = envInt('BENCH_USERS_ADMIN_SESSIONS', 3, 0, 20);
  const sockets = envInt('BENCH_USERS_SOCKETS', 128, 1, 4_096);

  const bare = await startBareServer();
  // The inspector (loopback, a free port) lets the bench collect the server's garbage and read its heap.
  const server = await startDisparo(undefined, { NODE_OPTIONS: '--inspect=127.0.0.1:0' }).catch(async (err) => {
    await bare.stop();
    throw err;
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  try {
    const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(server.output())?.[1];
    if (!inspectorUrl) throw new Error(`the server's inspector did not start:\n${server.output()}`);
    const setupStarted = performance.now();
    const customers = await signedInCustomers(server, userCount);
    const admins: User[] = [];
    for (let i = 0; i < adminSessions; i++) {
      admins.push({
        label: `${server.admin.username} (browser ${i + 1})`,
        cookie: await login(server.url, server.admin.username, server.admin.password),
        admin: true,
      });
    }
    const users = [...customers, ...admins];
    console.log(
      `  ${customers.length} approved customers registered, approved and signed in, plus ${admins.length} ` +
        `sessions of the administrator, in ${fmt((performance.now() - setupStarted) / 1000, 1)} s`,
    );
    for (const p of POLLS) {
      const anonymous = await request(server.url, 'GET', p.path);
      if (anonymous.status !== 401) throw new Error(`GET ${p.path} without a cookie answered ${anonymous.status}`);
    }

    console.log(`  every user polls, from a random moment within each interval (as the web app does):`);
    for (const p of POLLS)
      console.log(`    GET ${p.path.padEnd(32)} every ${fmt(p.intervalMs / 1000)} s  (${p.where})`);
    console.log(
      "    the real dashboard mounts one tab at a time, so a browser polls 'Verificação' and 'API WhatsApp' only " +
        'while they are open: here all at once, the worst case',
    );
    console.log(
      `  connections: one shared keep-alive pool of at most ${sockets} sockets for all ${users.length} users ` +
        '(a browser keeps up to 6 per user; the server sees fewer, busier connections)',
    );

    const latencies = POLLS.map(() => [] as number[]);
    const failures = POLLS.map(() => 0);
    const failureExamples: string[] = [];
    const lateness: number[] = [];
    let scheduled = 0;
    let skipped = 0;
    let completed = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    /** How long each request waited for a socket of the pool (a browser would not share them). */
    const poolWaits: number[] = [];
    const socketsSeen = new WeakSet<net.Socket>();
    let socketsOpened = 0;
    let lastAdminOnline: number | undefined;
    /** Latencies of the answers since the last sample, and of those after the first 10 s. */
    let window: number[] = [];
    const steady: number[] = [];

    const send = (baseUrl: string, path: string, cookie: string): Promise<Outcome> =>
      new Promise((resolve) => {
        const started = performance.now();
        const req = http.get(
          new URL(path, baseUrl),
          { agent, headers: { accept: 'application/json', cookie }, timeout: REQUEST_TIMEOUT_MS },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
                ms: performance.now() - started,
              }),
            );
            res.on('error', (err) =>
              resolve({ status: 0, body: '', ms: performance.now() - started, error: err.message }),
            );
          },
        );
        req.on('socket', (socket: net.Socket) => {
          if (baseUrl !== server.url) return;
          poolWaits.push(performance.now() - started);
          if (socketsSeen.has(socket)) return;
          socketsSeen.add(socket);
          socketsOpened++;
        });
        req.on('timeout', () => req.destroy(new Error(`timed out after ${REQUEST_TIMEOUT_MS} ms`)));
        req.on('error', (err) => resolve({ status: 0, body: '', ms: performance.now() - started, error: err.message }));
      });

    const check = (user: User, pollIndex: number, outcome: Outcome): string | undefined => {
      if (outcome.error) return outcome.error;
      if (outcome.status !== 200) return `HTTP ${outcome.status}: ${outcome.body.slice(0, 200)}`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(outcome.body);
      } catch {
        return `not JSON: ${outcome.body.slice(0, 200)}`;
      }
      const valid = POLLS[pollIndex].schema.safeParse(parsed);
      if (!valid.success) return `does not match the contract: ${outcome.body.slice(0, 200)}`;
      if (user.admin && POLLS[pollIndex].path === '/api/users/online-count') {
        lastAdminOnline = (valid.data as z.infer<typeof onlineCountResponse>).currentlyOnline;
      }
      return undefined;
    };

    // Sign-up leaves garbage the server has not collected yet: a full collection first, so that the
    // memory figures of the minute are the polling's own.
    const heapBefore = await liveHeapMb(inspectorUrl);
    const before = { rssMb: rssMb(server.pid), cpuMs: cpuMs(server.pid), waitMs: runQueueWaitMs(server.pid) };
    console.log(
      `  server after a full collection: live JS heap ${fmt(heapBefore, 1)} MB, RSS ${fmt(before.rssMb, 1)} MB; ` +
        `polling for ${seconds} s`,
    );
    const rand = random(20_240_601);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    const pending: Array<Promise<void>> = [];
    const t0 = performance.now() + 100;
    const end = t0 + seconds * 1000;
    let stopped = false;
    // The machine's own share of the latency: a bare node:http server polled 10 times a second
    // through the same client, during the same seconds.
    const reference: number[] = [];
    let referenceFailures = 0;
    const probeReference = async () => {
      await new Promise((r) => setTimeout(r, Math.max(0, t0 - performance.now())));
      for (let due = t0; due < end; due += 100) {
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        const outcome = await send(bare.url, POLLS[0].path, '');
        if (outcome.status === 200) reference.push(outcome.ms);
        else referenceFailures++;
      }
    };
    pending.push(probeReference());
    const generatorCpu = process.cpuUsage();
    // The load: one timer chain per user and endpoint, on absolute due times (no drift), skipping a
    // beat while the previous request of the same poll is still waiting, as the web app's query does.
    for (const user of users) {
      POLLS.forEach((poll, pollIndex) => {
        let due = t0 + rand() * poll.intervalMs;
        let busy = false;
        const tick = () => {
          if (stopped) return;
          const now = performance.now();
          lateness.push(now - due);
          scheduled++;
          if (busy) {
            skipped++;
          } else {
            busy = true;
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            const p = send(server.url, poll.path, user.cookie).then((outcome) => {
              busy = false;
              inFlight--;
              completed++;
              const problem = check(user, pollIndex, outcome);
              if (problem) {
                failures[pollIndex]++;
                if (failureExamples.length < 5) failureExamples.push(`GET ${poll.path} as ${user.label}: ${problem}`);
              } else {
                latencies[pollIndex].push(outcome.ms);
                window.push(outcome.ms);
                if (performance.now() - t0 >= STEADY_AFTER_MS) steady.push(outcome.ms);
              }
            });
            pending.push(p);
          }
          due += poll.intervalMs;
          if (due < end) setTimeout(tick, Math.max(0, due - performance.now()));
        };
        if (due < end) setTimeout(tick, Math.max(0, due - performance.now()));
      });
    }

    // Resident memory and CPU of the server every 5 s, from /proc.
    const samples: Sample[] = [];
    loopDelay.enable();
    let lastCpu = before.cpuMs;
    let lastWait = before.waitMs;
    let lastAt = performance.now();
    // On absolute times from the start of the load, the last one at its end.
    for (let k = 1; k * SAMPLE_EVERY_MS <= seconds * 1000; k++) {
      await new Promise((r) => setTimeout(r, Math.max(0, t0 + k * SAMPLE_EVERY_MS - performance.now())));
      const now = performance.now();
      const cpu = cpuMs(server.pid);
      const wait = runQueueWaitMs(server.pid);
      const sample: Sample = {
        atS: Math.round((now - t0) / 1000),
        rssMb: rssMb(server.pid),
        cpuPct: ((cpu - lastCpu) / (now - lastAt)) * 100,
        waitPct: ((wait - lastWait) / (now - lastAt)) * 100,
        requests: completed,
        p99: summarize(window).p99,
      };
      window = [];
      lastCpu = cpu;
      lastWait = wait;
      lastAt = now;
      samples.push(sample);
      console.log(
        `    t=${String(sample.atS).padStart(3)} s  RSS ${fmt(sample.rssMb, 1)} MB  server CPU ${fmt(sample.cpuPct, 0)} % (waited for one ${fmt(sample.waitPct, 0)} %)  ` +
          `${fmt(sample.requests)} answers (p99 ${fmt(sample.p99)} ms)  ${inFlight} in flight`,
      );
    }
    await new Promise((r) => setTimeout(r, Math.max(0, end - performance.now())));
    stopped = true;
    await Promise.all(pending);
    loopDelay.disable();
    const generator = process.cpuUsage(generatorCpu);
    const serverCpuMs = cpuMs(server.pid) - before.cpuMs;
    const serverWaitMs = runQueueWaitMs(server.pid) - before.waitMs;
    const heapAfter = await liveHeapMb(inspectorUrl);
    const heapGrowth = heapAfter - heapBefore;
    const measuredS = seconds;

    // Figures.
    const all = latencies.flat();
    const overall = summarize(all);
    const perPoll = latencies.map((l) => summarize(l));
    const failed = failures.reduce((a, b) => a + b, 0);
    const line = (label: string, s: LatencySummary, fails: number) =>
      `    ${label.padEnd(36)} ${fmt(s.count).padStart(7)} answers ${fmt(s.count / measuredS, 1).padStart(7)} req/s  ` +
      `p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)}  p99 ${fmt(s.p99)}  max ${fmt(s.max)} ms  failed ${fails}`;
    console.log(`  answers per endpoint (${fmt(measuredS, 1)} s):`);
    POLLS.forEach((p, i) => {
      console.log(line(`GET ${p.path}`, perPoll[i], failures[i]));
    });
    console.log(line('all', overall, failed));
    const steadySummary = summarize(steady);
    console.log(
      `    after the first ${STEADY_AFTER_MS / 1000} s (warm caches): p50 ${fmt(steadySummary.p50)}  p95 ${fmt(steadySummary.p95)}  ` +
        `p99 ${fmt(steadySummary.p99)}  max ${fmt(steadySummary.max)} ms over ${fmt(steadySummary.count)} answers`,
    );
    for (const example of failureExamples) console.log(`    failure: ${example}`);

    const third = Math.max(1, Math.floor(samples.length / 3));
    const mean = (xs: Sample[]) => xs.reduce((a, s) => a + s.rssMb, 0) / xs.length;
    const firstThird = mean(samples.slice(0, third));
    const lastThird = mean(samples.slice(-third));
    const growth = lastThird - firstThird;
    const peakRss = Math.max(...samples.map((s) => s.rssMb));
    const meanCpu = samples.reduce((a, s) => a + s.cpuPct, 0) / samples.length;
    const late = summarize(lateness);
    const delivered = (scheduled - skipped) / scheduled;
    const expectedRps = users.length * POLLS.reduce((a, p) => a + 1000 / p.intervalMs, 0);
    console.log(
      `  server RSS: ${fmt(firstThird, 1)} MB over the first third of the samples, ${fmt(lastThird, 1)} MB over the last ` +
        `(growth ${fmt(growth, 1)} MB), peak ${fmt(peakRss, 1)} MB; server CPU ${fmt(meanCpu, 0)} % of a core on average, ` +
        `${fmt((serverCpuMs * 1000) / completed, 0)} µs per answer; its main thread waited ${fmt(serverWaitMs / 1000, 1)} s ` +
        'for a CPU taken by other work on the machine',
    );
    console.log(
      `  server live JS heap after a full collection: ${fmt(heapBefore, 1)} MB before the load, ${fmt(heapAfter, 1)} MB ` +
        `after it (${fmt(heapGrowth, 1)} MB)`,
    );
    console.log(
      `  load: ${fmt(overall.count / measuredS, 1)} req/s answered (the schedule asks ${fmt(expectedRps, 1)}), ` +
        `${fmt(scheduled)} polls due, ${fmt(skipped)} skipped while the previous one waited; at most ${maxInFlight} in ` +
        `flight on ${socketsOpened} sockets; generator timers late by p99 ${fmt(late.p99)} ms, its event loop delay ` +
        `p99 ${fmt(loopDelay.percentile(99) / 1e6)} ms, its CPU ${fmt(((generator.user + generator.system) / 1e3 / (seconds * 1000)) * 100, 0)} % of a core`,
    );
    const ref = summarize(reference);
    const poolWait = summarize(poolWaits);
    console.log(
      `  waiting for a pooled socket (part of the latencies above): p50 ${fmt(poolWait.p50)}  p99 ${fmt(poolWait.p99)}  ` +
        `max ${fmt(poolWait.max)} ms`,
    );
    console.log(
      `  reference, bare node:http polled 10 times a second meanwhile: p50 ${fmt(ref.p50)}  p95 ${fmt(ref.p95)}  ` +
        `p99 ${fmt(ref.p99)}  max ${fmt(ref.max)} ms, ${referenceFailures} failed (what the machine alone adds)`,
    );
    console.log(
      `  the administrator's online count at the end: ${lastAdminOnline ?? 'never read'} (${users.length - admins.length} customers polling)`,
    );

    const checks = [
      ceiling('failed polls (network, non-200, off-contract body)', failed, 1, ''),
      ceiling('poll p99 latency, all endpoints', overall.p99, MAX_P99_MS, 'ms'),
      ceiling('server RSS growth, last third − first third', growth, MAX_RSS_GROWTH_MB, 'MB'),
      ceiling('server live JS heap growth over the load', heapGrowth, MAX_HEAP_GROWTH_MB, 'MB'),
      floor('polls sent ÷ polls due', delivered, MIN_DELIVERED, ''),
    ];
    if (admins.length) {
      checks.push(floor("customers online in the administrator's count", lastAdminOnline ?? 0, customers.length, ''));
    }
    printChecks(checks);

    const info: Record<string, number | string> = {
      users: customers.length,
      'admin sessions': admins.length,
      seconds: Number(measuredS.toFixed(1)),
      'req/s': Number((overall.count / measuredS).toFixed(1)),
      'pool sockets (max)': sockets,
      'sockets opened': socketsOpened,
      'p50 ms': Number(overall.p50.toFixed(2)),
      'p95 ms': Number(overall.p95.toFixed(2)),
      'p99 ms': Number(overall.p99.toFixed(2)),
      'p99 after the first 10 s ms': Number(steadySummary.p99.toFixed(2)),
      'RSS first third MB': Number(firstThird.toFixed(1)),
      'RSS last third MB': Number(lastThird.toFixed(1)),
      'RSS peak MB': Number(peakRss.toFixed(1)),
      'live heap before MB': Number(heapBefore.toFixed(1)),
      'live heap after MB': Number(heapAfter.toFixed(1)),
      'server CPU % of a core': Number(meanCpu.toFixed(0)),
      'bare node:http reference p99 ms': Number(ref.p99.toFixed(2)),
      'server wait for a CPU s': Number((serverWaitMs / 1000).toFixed(1)),
      'server CPU µs per answer': Math.round((serverCpuMs * 1000) / completed),
      'RSS samples MB': samples.map((s) => s.rssMb.toFixed(0)).join(' '),
    };
    POLLS.forEach((p, i) => {
      info[`${p.path} p99 ms`] = Number(perPoll[i].p99.toFixed(2));
    });
    return { name, checks, info };
  } finally {
    agent.destroy();
    await server.stop();
    await bare.stop();
  }
}
