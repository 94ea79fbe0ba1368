import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './server';

/**
 * The reading side of bench/lib/memory-probe.mjs: a server started with `probeNodeArgs()` and
 * BENCH_MEMORY_PROBE_FILE in its environment collects garbage on SIGUSR2 and writes its memory
 * figures to that file, which `probeMemory` waits for.
 */
const probeScript = join(repoRoot, 'bench', 'lib', 'memory-probe.mjs');

export const probeNodeArgs = () => ['--expose-gc', '--import', pathToFileURL(probeScript).href];

/** A server's memory after a forced full collection, in MB. */
export interface GcFigures {
  /** Resident memory a second after the collection (right after it, freed pages are still mapped). */
  rssMb: number;
  heapMb: number;
  /** The V8 heap's reserved size (heapTotal), used or not. */
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => bytes / 1048576;

/** Asks the server's probe for its memory after a full collection (waits up to `timeoutMs`). */
export async function probeMemory(pid: number, file: string, timeoutMs = 60_000): Promise<GcFigures> {
  const asked = Date.now();
  process.kill(pid, 'SIGUSR2');
  const deadline = asked + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(100);
    if (!existsSync(file)) continue;
    let m: {
      at: number;
      rssSettled: number;
      heapUsed: number;
      heapTotal: number;
      external: number;
      arrayBuffers: number;
    };
    try {
      m = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue; // read while an older probe's file was being replaced
    }
    if (m.at >= asked) {
      return {
        rssMb: mb(m.rssSettled),
        heapMb: mb(m.heapUsed),
        heapTotalMb: mb(m.heapTotal),
        externalMb: mb(m.external),
        arrayBuffersMb: mb(m.arrayBuffers),
      };
    }
  }
  throw new Error('the memory probe did not answer');
}
