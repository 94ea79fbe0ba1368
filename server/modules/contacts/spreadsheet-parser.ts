import { Worker } from 'node:worker_threads';
import { contactsMsg } from '../../../contract/contacts';
import { AppError } from '../../errors';
import { Semaphore } from '../../lib/semaphore';
import type { SpreadsheetOutcome } from './spreadsheet-read';
import { checkZipStructure, ZipRefused } from './zip-guard';

/** Heap of one spreadsheet worker: room for 200,000 rows, not for a bomb. */
const WORKER_HEAP_MB = 384;
const WORKER_TIMEOUT_MS = 30_000;
/** Workers at once across the server: parsing is CPU-bound, the machine has few cores. */
const workers = new Semaphore(2);
/** Accounts with a spreadsheet being read right now: one at a time each. */
const busyAccounts = new Set<string>();

/**
 * The worker's module: the .ts source through tsx (tests, `npm run dev`), or the bundled
 * `spreadsheet-worker.js` beside `dist/server/main.js` in production.
 */
const workerUrl = import.meta.url.endsWith('.ts')
  ? new URL('./spreadsheet-worker.dev.mjs', import.meta.url)
  : new URL('./spreadsheet-worker.js', import.meta.url);

function runWorker(kind: 'xlsx' | 'xls', data: Buffer): Promise<SpreadsheetOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    let settled = false;
    const finish = (outcome: SpreadsheetOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'too_large' }), WORKER_TIMEOUT_MS);
    worker.once('message', (outcome: SpreadsheetOutcome) => finish(outcome));
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or any crash of the library: the file is refused.
    worker.once('error', () => finish({ ok: false, reason: 'too_large' }));
    worker.once('exit', () => finish({ ok: false, reason: 'invalid' }));
    worker.postMessage({ kind, data });
  });
}

/** Reads an uploaded .xlsx/.xls off the main thread; pt-BR 4xx for a refused file or a second upload at once. */
export async function readSpreadsheet(accountId: string, kind: 'xlsx' | 'xls', data: Buffer): Promise<string[][]> {
  if (kind === 'xlsx') {
    // Headers only, on this thread: a lying or oversized zip is refused before a worker is started.
    try {
      checkZipStructure(data);
    } catch (err) {
      if (!(err instanceof ZipRefused)) throw err;
      if (err.reason === 'too_large') throw new AppError('PAYLOAD_TOO_LARGE', contactsMsg.spreadsheetTooLarge);
      throw new AppError('VALIDATION', contactsMsg.invalidFile);
    }
  }
  if (busyAccounts.has(accountId)) throw new AppError('RATE_LIMITED', contactsMsg.spreadsheetBusy);
  busyAccounts.add(accountId);
  try {
    const outcome = await workers.run(() => runWorker(kind, data));
    if (outcome.ok) return outcome.rows;
    if (outcome.reason === 'too_large') throw new AppError('PAYLOAD_TOO_LARGE', contactsMsg.spreadsheetTooLarge);
    throw new AppError('VALIDATION', contactsMsg.invalidFile);
  } finally {
    busyAccounts.delete(accountId);
  }
}
