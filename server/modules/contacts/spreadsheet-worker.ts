import { parentPort, workerData } from 'node:worker_threads';
import { readSpreadsheetRows } from './spreadsheet-read';

/**
 * A worker thread that reads one uploaded spreadsheet and exits: the zip guard's inflating and the
 * library's parsing happen here, under the worker's memory limit, so one file cannot stall or
 * exhaust the server that answers everybody else. Started by spreadsheet-parser.ts.
 */
const job = workerData as { kind: 'xlsx' | 'xls'; data: Uint8Array };
parentPort?.postMessage(
  readSpreadsheetRows(job.kind, Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength)),
);
