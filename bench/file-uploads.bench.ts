import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { unlimitedCustomer } from './lib/contacts';
import { healthDuring } from './lib/health-probe';
import { type BenchResult, ceiling, printChecks } from './lib/report';
import { rssMb, startDisparo, withServer } from './lib/server';
import { summarize } from './lib/stats';

/**
 * Benchmark: the largest files an account may upload — a 16 MB audio and a 100 MB document — while
 * `/api/health` is asked every 10 ms, on the embedded database (the bytes go to the media store on
 * disk, docs/decisions/042-media-store.md). Targets: health p99 under 100 ms during each upload, and
 * the server's resident memory growing by well under the file's size (it streams, never holds it).
 */
export const name = 'file-uploads';

const MB = 1024 * 1024;
const MAX_HEALTH_P99_MS = 100;

/** Posts one file as multipart, generated in 1 MB pieces as it goes (the load generator holds none of it either). */
function postFile(base: string, cookie: string, fileName: string, head: Buffer, size: number): Promise<number> {
  const boundary = '----disparo-bench';
  const start = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const end = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(new URL('/api/uploads', base), {
      method: 'POST',
      headers: {
        cookie,
        // As a browser does: a cookie-carrying write names the page's origin.
        origin: new URL(base).origin,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': start.length + size + end.length,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    (async () => {
      req.write(start);
      req.write(head);
      const piece = randomBytes(MB);
      for (let sent = head.length; sent < size; sent += MB) {
        const chunk = piece.subarray(0, Math.min(MB, size - sent));
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end(end);
    })().catch(reject);
  });
}

export async function run(): Promise<BenchResult> {
  return withServer(
    () => startDisparo(),
    async (server) => {
      const cookie = await unlimitedCustomer(server, 420);
      const checks = [];
      const info: BenchResult['info'] = {};
      for (const [label, fileName, head, size] of [
        [
          '16 MB audio',
          'jingle.mp3',
          Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'),
          16 * MB - 4096,
        ],
        ['100 MB document', 'catalogo.pdf', Buffer.from('%PDF-1.7\n'), 100 * MB - 4096],
      ] as const) {
        const before = rssMb(server.pid);
        let peak = before;
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssMb(server.pid));
        }, 50);
        const started = Date.now();
        const { result: status, healthMs } = await healthDuring(server.url, () =>
          postFile(server.url, cookie, fileName, head, size),
        );
        clearInterval(sampler);
        const h = summarize(healthMs);
        checks.push(
          ceiling(`${label}: upload not stored`, status === 200 ? 0 : 1, 1, ''),
          ceiling(`${label}: /api/health p99 during the upload`, h.p99, MAX_HEALTH_P99_MS, 'ms'),
          ceiling(`${label}: resident memory growth`, peak - before, Math.max(64, size / MB / 2), 'MB'),
        );
        info[`${label} ms`] = Date.now() - started;
        info[`${label} health p99 ms`] = Number(h.p99.toFixed(1));
        info[`${label} memory MB`] = Math.round(peak - before);
      }
      printChecks(checks);
      return { name, checks, info };
    },
  );
}
