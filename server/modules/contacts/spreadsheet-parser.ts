import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { contactsMsg } from '../../../contract/contacts';
import { AppError } from '../../errors';
import { Semaphore } from '../../lib/semaphore';
import type { SpreadsheetOutcome } from './spreadsheet-read';
import { checkZipStructure, ZipRefused } from './zip-guard';

export interface SpreadsheetWorkerLimits {
  /**
   * V8 heap of the worker (old generation). A sheet at the row limit (200,000 rows of name, phone,
   * e-mail and tags, 50 MB of XML) needs more than 200 MB; the rest is room for wider sheets.
   */
  heapMb: number;
  /** A file still being read after this long is refused and its worker stopped. */
  timeoutMs: number;
}

export const SPREADSHEET_WORKER_LIMITS: SpreadsheetWorkerLimits = { heapMb: 384, timeoutMs: 20_000 };

/**
 * The worker's module: the .ts source through a small tsx loader (tests, `npm run dev`), or the
 * bundled `spreadsheet-worker.js` that scripts/build-server.mjs writes beside `dist/server/main.js`.
 */
const workerUrl = import.meta.url.endsWith('.ts')
  ? new URL('./spreadsheet-worker.dev.mjs', import.meta.url)
  : new URL('./spreadsheet-worker.js', import.meta.url);

const tooLarge: SpreadsheetOutcome = { ok: false, reason: 'too_large' };

function runWorker(kind: 'xlsx' | 'xls', data: Buffer, limits: SpreadsheetWorkerLimits): Promise<SpreadsheetOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, {
      workerData: { kind, data },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done();
    };
    const timer = setTimeout(() => settle(() => resolve(tooLarge)), limits.timeoutMs);
    worker.once('message', (outcome: SpreadsheetOutcome) => settle(() => resolve(outcome)));
    // The worker answers every file it can read or refuse; an error event is either the heap limit
    // (the file asked for too much) or a fault of the server (say, the worker module is missing),
    // which must surface as one.
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() => (err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve(tooLarge) : reject(err))),
    );
    worker.once('exit', () => settle(() => resolve(tooLarge)));
  });
}

/** Reads the spreadsheets of one app's imports (its contacts state holds one, contacts-state.ts). */
export class SpreadsheetReader {
  /** Workers at once across the app: parsing is CPU-bound, and the main thread needs a core too. */
  private readonly workers = new Semaphore(Math.max(1, Math.min(2, availableParallelism() - 1)));
  /** Accounts with a spreadsheet being read right now: one at a time each. */
  private readonly busyAccounts = new Set<string>();

  /**
   * The rows of an uploaded .xlsx/.xls, read in a worker thread under memory and time limits; a
   * refused file, a worker out of memory or out of time become a pt-BR 4xx. One file per account at
   * a time, and a few across the server.
   */
  async read(
    accountId: string,
    kind: 'xlsx' | 'xls',
    data: Buffer,
    limits: SpreadsheetWorkerLimits = SPREADSHEET_WORKER_LIMITS,
  ): Promise<string[][]> {
    if (kind === 'xlsx') {
      // Headers only, on this thread: a lying or oversized zip is refused before any worker starts.
      try {
        checkZipStructure(data);
      } catch (err) {
        if (!(err instanceof ZipRefused)) throw err;
        throw err.reason === 'too_large'
          ? new AppError('PAYLOAD_TOO_LARGE', contactsMsg.spreadsheetTooLarge)
          : new AppError('VALIDATION', contactsMsg.invalidFile);
      }
    }
    if (this.busyAccounts.has(accountId)) throw new AppError('RATE_LIMITED', contactsMsg.spreadsheetBusy);
    this.busyAccounts.add(accountId);
    try {
      const outcome = await this.workers.run(() => runWorker(kind, data, limits));
      if (outcome.ok) return outcome.rows;
      if (outcome.reason === 'too_large') throw new AppError('PAYLOAD_TOO_LARGE', contactsMsg.spreadsheetTooLarge);
      throw new AppError('VALIDATION', contactsMsg.invalidFile);
    } finally {
      this.busyAccounts.delete(accountId);
    }
  }
}
