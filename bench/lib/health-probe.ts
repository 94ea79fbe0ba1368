import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Its own connection, so the probe never queues behind the load it measures. */
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function health(baseUrl: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(new URL('/api/health', baseUrl), { agent: probeAgent, timeout: 60_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('health timed out')));
    req.on('error', reject);
  });
}

/**
 * Asks `/api/health` every `everyMs` while `work` runs, as a load balancer or another tenant's
 * request would, and answers each answer's time: what everyone else feels while one tenant's
 * heavy request is served.
 */
export async function healthDuring<T>(
  baseUrl: string,
  work: () => Promise<T>,
  everyMs = 10,
): Promise<{ result: T; healthMs: number[] }> {
  const healthMs: number[] = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      healthMs.push(await health(baseUrl));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await work();
    return { result, healthMs };
  } finally {
    done = true;
    await probing;
  }
}
