import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { FakeGraphApi } from '../server/testing/fake-graph-api';
import { contactRows, toCsvText, unlimitedCustomer, uploadContacts } from './lib/contacts';
import { expectStatus, request } from './lib/http';
import { type BenchResult, type Check, ceiling, floor, fmt, printChecks } from './lib/report';
import { type DisparoServer, startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: campaigns. Starting a campaign to 100,000 contacts; the campaigns list and a running
 * campaign's progress while it has 100,000 recipient rows; Cloud API throughput of one number
 * against a local fake Graph API answering after 200 ms (and at once); personal-number pacing
 * and the daily limit through the simulator.
 */
export const name = 'campaigns';

const START_MAX_MS = 2000;
const LIST_P95_MAX_MS = 20;
const CLOUD_MIN_RATE = 80;
const CLOUD_RSS_MAX_MB = 150;
const PHONE_ID = '109000000000555';
const TOKEN = 'EAAG-bench-token';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
};

async function api(server: DisparoServer, cookie: string, method: string, path: string, json?: unknown) {
  const res = await request(server.url, method, path, { cookie, json });
  return { status: res.status, body: res.body ? JSON.parse(res.body) : undefined };
}

async function settings(server: DisparoServer, cookie: string, patch: Record<string, unknown>) {
  const res = await api(server, cookie, 'PUT', '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay: 2,
    dailyLimit: 100_000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
    ...patch,
  });
  if (res.status !== 200) throw new Error(`settings answered ${res.status}: ${JSON.stringify(res.body)}`);
}

async function newCampaign(server: DisparoServer, cookie: string, label: string): Promise<string> {
  const res = await api(server, cookie, 'POST', '/api/campaigns', {
    name: label,
    message: '{Olá|Oi} {{primeiro_nome}}, temos novidades!',
    targetType: 'contacts',
  });
  if (res.status !== 200) throw new Error(`create answered ${res.status}`);
  return res.body.id as string;
}

async function waitStatus(
  server: DisparoServer,
  cookie: string,
  id: string,
  ok: (c: Record<string, unknown>) => boolean,
  ms: number,
) {
  const end = Date.now() + ms;
  for (;;) {
    const c = (await api(server, cookie, 'GET', `/api/campaigns/${id}`)).body;
    if (ok(c)) return c;
    if (Date.now() > end) throw new Error(`campaign ${id} still ${c.status} after ${ms / 1000} s`);
    await sleep(200);
  }
}

/** Start of a 100,000-recipient campaign, then list and progress latency while its rows exist. */
async function startAndList(checks: Check[], info: BenchResult['info']) {
  const rows = envInt('BENCH_CAMPAIGN_ROWS', 100_000, 1_000, 200_000);
  const requests = envInt('BENCH_CAMPAIGN_REQUESTS', 300, 50, 5_000);
  await withServer(startDisparo, async (server) => {
    const cookie = await unlimitedCustomer(server, 301);
    const imported = await uploadContacts(
      server.url,
      cookie,
      'contatos.csv',
      Buffer.from(toCsvText(contactRows(rows))),
    );
    if (imported.body.imported !== rows) throw new Error(`imported ${imported.body.imported} of ${rows}`);
    // No WhatsApp connected: the campaign starts and waits ('offline'), so the rows stay queued.
    const id = await newCampaign(server, cookie, 'Grande');
    const started = performance.now();
    const res = await api(server, cookie, 'POST', `/api/campaigns/${id}/send`);
    const startMs = performance.now() - started;
    if (res.status !== 200) throw new Error(`send answered ${res.status}: ${JSON.stringify(res.body)}`);
    console.log(`  start of a campaign to ${fmt(rows)} contacts: ${fmt(startMs)} ms`);
    for (let i = 0; i < 5; i++)
      await api(server, cookie, 'POST', '/api/campaigns', { name: `Rascunho ${i}`, message: 'Oi' });

    const listMs: number[] = [];
    const oneMs: number[] = [];
    for (let i = 0; i < 20; i++) await api(server, cookie, 'GET', '/api/campaigns');
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      const r = await request(server.url, 'GET', i % 2 ? `/api/campaigns/${id}` : '/api/campaigns', { cookie });
      (i % 2 ? oneMs : listMs).push(performance.now() - t);
      expectStatus(r, 200, 'campaigns list');
    }
    const list = summarize(listMs);
    const one = summarize(oneMs);
    console.log(
      `  list: p50 ${fmt(list.p50)} ms, p95 ${fmt(list.p95)} ms; one campaign: p50 ${fmt(one.p50)} ms, p95 ${fmt(one.p95)} ms`,
    );
    const pg = Boolean(process.env.BENCH_DATABASE_URL);
    checks.push(
      ceiling(
        `campaign start, ${fmt(rows)} recipients (${pg ? 'PostgreSQL' : 'embedded'})`,
        startMs,
        pg ? START_MAX_MS : START_MAX_MS * 3,
        'ms',
      ),
      ceiling('campaigns list p95 (100k-recipient campaign)', list.p95, LIST_P95_MAX_MS, 'ms'),
      ceiling('running campaign progress p95', one.p95, LIST_P95_MAX_MS, 'ms'),
    );
    Object.assign(info, {
      'start ms': Number(startMs.toFixed(0)),
      'list p95 ms': Number(list.p95.toFixed(2)),
      'progress p95 ms': Number(one.p95.toFixed(2)),
    });
  });
}

/** One number on the Cloud API against a fake Graph API with the given latency; answers messages per second. */
async function cloudRun(latencyMs: number, throughput: number, recipients: number) {
  const graph = await new FakeGraphApi().start();
  graph.keepRequests = false;
  graph.latencyMs = latencyMs;
  graph.phones.set(PHONE_ID, {
    token: TOKEN,
    display_phone_number: '551130005555',
    verified_name: 'Loja Bench',
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    status: 'CONNECTED',
  });
  try {
    return await withServer(
      () =>
        startDisparo(undefined, {
          GRAPH_API_URL: graph.url,
          WHATSAPP_CLOUD_THROUGHPUT: String(throughput),
          DISPATCH_TICK_MS: '200',
        }),
      async (server) => {
        const cookie = await unlimitedCustomer(server, 310 + throughput);
        const conf = await api(server, cookie, 'POST', '/api/whatsapp-business/configure', {
          accessToken: TOKEN,
          phoneNumberId: PHONE_ID,
        });
        if (conf.status !== 200) throw new Error(`configure answered ${conf.status}`);
        await settings(server, cookie, { channel: 'cloud' });
        const imported = await uploadContacts(
          server.url,
          cookie,
          'c.csv',
          Buffer.from(toCsvText(contactRows(recipients))),
        );
        if (imported.body.imported !== recipients) throw new Error(`imported ${imported.body.imported}`);
        const id = await newCampaign(server, cookie, 'Cloud');
        const rssBefore = rssMb(server.pid);
        let rssPeak = rssBefore;
        const sampler = setInterval(() => {
          rssPeak = Math.max(rssPeak, rssMb(server.pid));
        }, 250);
        await api(server, cookie, 'POST', `/api/campaigns/${id}/send`);
        await waitStatus(server, cookie, id, (c) => c.status === 'completed', 600_000);
        clearInterval(sampler);
        const first = graph.sent.length;
        const to = graph.sent.map((m) => m.to as string);
        return { sent: first, unique: new Set(to).size, rssGrowth: rssPeak - rssBefore, graph };
      },
    );
  } finally {
    await graph.stop();
  }
}

/** Messages per second as the fake Graph API saw them arrive (first to last). */
function measuredRate(times: readonly number[]): number {
  if (times.length < 2) return 0;
  return ((times.length - 1) * 1000) / (times[times.length - 1] - times[0]);
}

async function cloud(checks: Check[], info: BenchResult['info']) {
  const recipients = envInt('BENCH_CLOUD_RECIPIENTS', 10_000, 500, 100_000);
  for (const [latency, throughput] of [
    [200, 80],
    [0, 1000],
  ] as const) {
    {
      const r = await cloudRun(latency, throughput, recipients);
      const rate = measuredRate(r.graph.sentTimes);
      console.log(
        `  Cloud API, fake answering after ${latency} ms, throughput ${throughput}/s: ${fmt(rate)} msg/s over ${fmt(r.sent)} sends, ${fmt(r.sent - r.unique)} duplicates, RSS +${fmt(r.rssGrowth)} MB`,
      );
      if (latency > 0) {
        checks.push(
          floor(`Cloud API msg/s, ${latency} ms answers (1 % clock tolerance)`, rate, CLOUD_MIN_RATE * 0.99, 'msg/s'),
          ceiling('Cloud API duplicates', r.sent - r.unique, 1, ''),
          ceiling('Cloud API missing recipients', recipients - r.unique, 1, ''),
          ceiling('server RSS growth while sending', r.rssGrowth, CLOUD_RSS_MAX_MB, 'MB'),
        );
        info['cloud msg/s (200 ms)'] = Number(rate.toFixed(1));
      } else {
        info['cloud msg/s (instant, throughput 1000)'] = Number(rate.toFixed(1));
        checks.push(ceiling('Cloud API duplicates (instant answers)', r.sent - r.unique, 1, ''));
      }
    }
  }
}

/** Personal number through the simulator: gaps between sends and the daily limit. */
async function personal(checks: Check[], info: BenchResult['info']) {
  const delay = 1;
  const limit = 10;
  await withServer(
    () => startDisparo(undefined, { DISPATCH_TICK_MS: '100' }),
    async (server) => {
      const cookie = await unlimitedCustomer(server, 330);
      await settings(server, cookie, { messageDelay: delay, dailyLimit: limit });
      await api(server, cookie, 'POST', '/api/whatsapp/connect');
      for (let i = 0; i < 100; i++) {
        const s = (await api(server, cookie, 'GET', '/api/whatsapp-session')).body;
        if (s.isConnected && s.phoneNumber) break;
        await sleep(200);
      }
      // Numbers ending in an odd digit: the simulator delivers to all of them.
      const rows = contactRows(limit + 4).map((r, i) => [r[0], `+55 21 9${String(87_650_001 + i * 2)}`]);
      const imported = await uploadContacts(
        server.url,
        cookie,
        'p.csv',
        Buffer.from(toCsvText([['Nome', 'Telefone'], ...rows.slice(1)])),
      );
      if (imported.body.imported < limit) throw new Error(`imported ${imported.body.imported}`);
      const id = await newCampaign(server, cookie, 'Pessoal');
      await api(server, cookie, 'POST', `/api/campaigns/${id}/send`);
      const waiting = await waitStatus(
        server,
        cookie,
        id,
        (c) => c.status === 'in_progress' && c.waitingReason === 'daily_limit',
        120_000,
      );
      await sleep(2000);
      const report = (await api(server, cookie, 'GET', `/api/campaigns/${id}/recipients?limit=200`)).body;
      const sentAt = (report.items as Array<{ sentAt: string | null }>)
        .map((r) => (r.sentAt ? Date.parse(r.sentAt) : null))
        .filter((t): t is number => t !== null)
        .sort((a, b) => a - b);
      const gaps = sentAt.slice(1).map((t, i) => t - sentAt[i]);
      const low = delay * 1000;
      const high = delay * 1000 + Math.max(1000, delay * 300);
      const outside = gaps.filter((g) => g < low * 0.9 || g > high * 1.1).length;
      const g = summarize(gaps);
      console.log(
        `  personal number, delay ${delay} s + jitter up to ${high - low} ms: gaps min ${fmt(g.min)} ms, p50 ${fmt(g.p50)} ms, max ${fmt(g.max)} ms; ${outside} of ${gaps.length} outside ±10 %; sent ${sentAt.length} with daily limit ${limit}`,
      );
      checks.push(
        ceiling('personal gaps outside delay+jitter ±10 %', outside, 1, ''),
        ceiling('sent over the daily limit', Math.max(0, sentAt.length - limit), 1, ''),
        floor('sent up to the daily limit', sentAt.length, limit, ''),
      );
      info['personal gap p50 ms'] = Number(g.p50.toFixed(0));
      info['messagesSent at limit'] = Number(waiting.messagesSent);
    },
  );
}

export async function run(): Promise<BenchResult> {
  const checks: Check[] = [];
  const info: BenchResult['info'] = {};
  await startAndList(checks, info);
  await cloud(checks, info);
  await personal(checks, info);
  printChecks(checks);
  return { name, checks, info };
}
