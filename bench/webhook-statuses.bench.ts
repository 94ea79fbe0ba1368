import { performance } from 'node:perf_hooks';
import { FakeGraphApi } from '../server/testing/fake-graph-api';
import { signBody } from '../server/whatsapp/cloud-api/webhook';
import { unlimitedCustomer } from './lib/contacts';
import { healthDuring } from './lib/health-probe';
import { request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { type DisparoServer, rssMb, startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: webhooks full of statuses from an account that signs its own (it chooses its app
 * secret). First the probe's single delivery of 20,000 statuses, then 20,000 statuses as 20
 * deliveries of 1,000 (the most one delivery may carry) posted at once, ids unknown to the server
 * (each looked up, then tried again 1 s and 5 s later). Meanwhile `/api/health` is asked every
 * 10 ms: its p99 is what every other tenant feels.
 */
export const name = 'webhook-statuses';

const HEALTH_P99_MAX_MS = 100;
const PHONE_ID = '109000000000888';
const BUSINESS_ID = '209000000000888';
const TOKEN = 'EAAG-bench-statuses-token';
const APP_SECRET = 'bench-statuses-app-secret';
/** Unknown ids are tried again 1 s and 5 s after they first came: the window includes both. */
const RETRY_WINDOW_MS = 6_500;

function statuses(ids: string[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: BUSINESS_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: PHONE_ID },
                statuses: ids.map((id) => ({ id, status: 'read' })),
              },
            },
          ],
        },
      ],
    }),
  );
}

async function setUp(server: DisparoServer): Promise<string> {
  const cookie = await unlimitedCustomer(server, 402);
  const res = await request(server.url, 'POST', '/api/whatsapp-business/configure', {
    cookie,
    json: { accessToken: TOKEN, phoneNumberId: PHONE_ID, businessAccountId: BUSINESS_ID, appSecret: APP_SECRET },
  });
  if (res.status !== 200) throw new Error(`configure answered ${res.status}: ${res.body.slice(0, 300)}`);
  const path = (JSON.parse(res.body) as { config?: { webhookPath?: string } }).config?.webhookPath;
  if (!path) throw new Error('configure gave no webhook path');
  return path;
}

async function post(server: DisparoServer, path: string, body: Buffer): Promise<number> {
  const res = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, APP_SECRET) },
    body: new Uint8Array(body),
  });
  await res.arrayBuffer();
  return res.status;
}

export async function run(): Promise<BenchResult> {
  const total = envInt('BENCH_STATUSES_TOTAL', 20_000, 1_000, 100_000);
  const graph = await new FakeGraphApi().start();
  graph.phones.set(PHONE_ID, {
    token: TOKEN,
    display_phone_number: '551130008888',
    verified_name: 'Loja Bench',
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    status: 'CONNECTED',
    businessAccountId: BUSINESS_ID,
  });
  try {
    return await withServer(
      () => startDisparo(undefined, { GRAPH_API_URL: graph.url }),
      async (server) => {
        const path = await setUp(server);
        const rssBefore = rssMb(server.pid);

        const single = await healthDuring(server.url, async () => {
          const t = performance.now();
          const status = await post(server, path, statuses(Array.from({ length: total }, (_, i) => `w${i}`)));
          return { status, ms: performance.now() - t };
        });

        const perDelivery = 1_000;
        const bodies = Array.from({ length: Math.ceil(total / perDelivery) }, (_, d) =>
          statuses(Array.from({ length: perDelivery }, (_, i) => `wamid.bench${d}x${i}`)),
        );
        const split = await healthDuring(server.url, async () => {
          const t = performance.now();
          const answered = await Promise.all(bodies.map((b) => post(server, path, b)));
          const answeredMs = performance.now() - t;
          await new Promise((resolve) => setTimeout(resolve, RETRY_WINDOW_MS));
          return { answered, answeredMs };
        });
        const rssAfter = rssMb(server.pid);

        const singleHealth = summarize(single.healthMs);
        const splitHealth = summarize(split.healthMs);
        const refusedOk = single.result.status === 400;
        const splitOk = split.result.answered.every((s) => s === 200);
        console.log(
          `  one delivery of ${fmt(total)} statuses: HTTP ${single.result.status} in ${fmt(single.result.ms)} ms; health p99 ${fmt(singleHealth.p99)} ms over ${singleHealth.count} probes`,
        );
        console.log(
          `  ${bodies.length} deliveries of ${fmt(perDelivery)} at once: answered in ${fmt(split.result.answeredMs)} ms (${split.result.answered.filter((s) => s === 200).length} × 200); health p50 ${fmt(splitHealth.p50)} ms, p99 ${fmt(splitHealth.p99)} ms, max ${fmt(splitHealth.max)} ms over ${splitHealth.count} probes in ${fmt(RETRY_WINDOW_MS)} ms after; RSS ${fmt(rssBefore)} → ${fmt(rssAfter)} MB`,
        );
        const checks = [
          ceiling(
            `health p99 during one delivery of ${fmt(total)} statuses`,
            singleHealth.p99,
            HEALTH_P99_MAX_MS,
            'ms',
          ),
          ceiling(
            `health p99 during ${fmt(total)} statuses in deliveries of 1,000`,
            splitHealth.p99,
            HEALTH_P99_MAX_MS,
            'ms',
          ),
        ];
        printChecks(checks);
        return {
          name,
          checks,
          info: {
            'single delivery answer': `HTTP ${single.result.status}${refusedOk ? ' (refused: over 1,000 events)' : ''}`,
            'split deliveries answered 200': splitOk ? 'all' : 'not all',
            'RSS before / after (MB)': `${fmt(rssBefore)} / ${fmt(rssAfter)}`,
          },
          ...(refusedOk && splitOk ? {} : { error: 'unexpected webhook answers' }),
        };
      },
    );
  } finally {
    await graph.stop();
  }
}
