import { randomBytes } from 'node:crypto';
import { unlimitedCustomer } from './lib/contacts';
import { healthDuring } from './lib/health-probe';
import { expectStatus, request } from './lib/http';
import { type BenchResult, ceiling, printChecks } from './lib/report';
import { rssMb, startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: 1,000 files arriving from contacts within a minute (20 contacts, 50 each, 100 KB, the
 * simulated phone's route), each recorded with its message and fetched into the media store by
 * the background job. Meanwhile `/api/health` is asked every 10 ms and the server's resident memory
 * is sampled. Targets: every file stored within 30 s of the last arrival; health p99 under 100 ms;
 * memory growth under 200 MB (100 MB of files went through: none of them may stay in memory).
 */
export const name = 'inbound-media';

const SENDERS = 20;
const FILE_BYTES = 100 * 1024;
const MAX_HEALTH_P99_MS = 100;
const MAX_SETTLE_MS = 30_000;
const MAX_GROWTH_MB = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function run(): Promise<BenchResult> {
  const total = envInt('BENCH_INBOUND_MEDIA', 1000, SENDERS, 10_000);
  return withServer(
    () => startDisparo(),
    async (server) => {
      const cookie = await unlimitedCustomer(server, 410);
      expectStatus(await request(server.url, 'POST', '/api/whatsapp/connect', { cookie }), 200, 'connect');
      for (let i = 0; i < 100; i++) {
        const s = JSON.parse((await request(server.url, 'GET', '/api/whatsapp-session', { cookie })).body);
        if (s.isConnected && s.phoneNumber) break;
        await sleep(200);
      }
      const phones = Array.from({ length: SENDERS }, (_, i) => `55219${String(88_000_001 + i * 2)}`);
      const dataBase64 = randomBytes(FILE_BYTES).toString('base64');
      const baseRss = rssMb(server.pid);
      let peakRss = baseRss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, rssMb(server.pid));
      }, 100);
      const started = Date.now();
      const perSecond = total / 55;
      const { result, healthMs } = await healthDuring(server.url, async () => {
        // Arrivals spread over about 55 s, four at a time, as a busy shop's numbers see them.
        let next = 0;
        const send = async () => {
          for (let i = next++; i < total; i = next++) {
            const due = started + (i / perSecond) * 1000;
            if (due > Date.now()) await sleep(due - Date.now());
            const from = phones[i % SENDERS];
            expectStatus(
              await request(server.url, 'POST', '/api/whatsapp/simulator/inbound', {
                cookie,
                json: {
                  from,
                  media: { kind: 'document', mimeType: 'application/pdf', fileName: `f${i}.pdf`, dataBase64 },
                },
              }),
              200,
              'inbound file',
            );
          }
        };
        await Promise.all([send(), send(), send(), send()]);
        const arrived = Date.now();
        // Until every file is stored (or failed), reading each contact's thread.
        for (;;) {
          let settled = 0;
          for (const phone of phones) {
            const res = JSON.parse(
              (await request(server.url, 'GET', `/api/conversations/${phone}?limit=200`, { cookie })).body,
            ) as { messages: Array<{ media?: { state?: string } }> };
            settled += res.messages.filter((m) => m.media && m.media.state !== 'pending').length;
          }
          if (settled >= total || Date.now() - arrived > MAX_SETTLE_MS * 2) return { settled, arrived };
          await sleep(500);
        }
      });
      clearInterval(sampler);
      const settleMs = Date.now() - result.arrived;
      const h = summarize(healthMs);
      const checks = [
        ceiling('files not stored', total - result.settled, 1, ''),
        ceiling('last file stored after the last arrival', settleMs, MAX_SETTLE_MS, 'ms'),
        ceiling('/api/health p99 while files arrive', h.p99, MAX_HEALTH_P99_MS, 'ms'),
        ceiling('resident memory growth', peakRss - baseRss, MAX_GROWTH_MB, 'MB'),
      ];
      printChecks(checks);
      return {
        name,
        checks,
        info: {
          files: total,
          fileKiB: FILE_BYTES / 1024,
          arrivalsMs: result.arrived - started,
          settleMs,
          healthP50Ms: Number(h.p50.toFixed(1)),
          healthP99Ms: Number(h.p99.toFixed(1)),
          baseRssMb: Math.round(baseRss),
          peakRssMb: Math.round(peakRss),
        },
      };
    },
  );
}
