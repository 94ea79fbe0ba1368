import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * Shared buffers of the embedded database (PGLITE_SHARED_BUFFERS_MB). PGlite starts PostgreSQL
 * with 128 MB, all of it resident from the start: the embedded server then rests at about 375 MB.
 * Pages that miss the buffers are read again through PGlite's file system, which costs far more
 * than a hit: at 32 MB the server rests near 290 MB but paging deep into a large table took 3 to
 * 7 times as long as at 128 MB; 64 MB is the default between the two (bench/memory.bench.ts and
 * the README's memory figures).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 64;

/**
 * PostgreSQL's start-up parameters for the embedded database: PGlite's own (single-user mode,
 * no parallel workers…), which the library keeps out of its published types, and our buffers.
 */
export function pgliteStartParams(sharedBuffersMb = DEFAULT_PGLITE_SHARED_BUFFERS_MB): string[] {
  const defaults = (PGlite as unknown as { defaultStartParams?: unknown }).defaultStartParams;
  if (!Array.isArray(defaults) || !defaults.every((p) => typeof p === 'string')) {
    throw new Error('PGlite.defaultStartParams is missing: check the start-up parameters after a PGlite upgrade');
  }
  return [...defaults, '-c', `shared_buffers=${sharedBuffersMb}MB`];
}

/**
 * The child's program: PGlite creates the database (initdb), closes it and the process ends.
 * Plain CommonJS given on the command line, so it runs alike from source (tsx, tests) and from
 * the bundle in dist/, with no file to ship beside either.
 */
const CREATE_PROGRAM = `
const [entry, dir, params] = process.argv.slice(1);
require(entry)
  .PGlite.create(dir, { startParams: JSON.parse(params) })
  .then((pg) => pg.close())
  .then(
    () => process.exit(0),
    (err) => {
      console.error((err && err.stack) || String(err));
      process.exit(1);
    },
  );
`;

const STDERR_KEEP = 8_000;

/**
 * Creates the embedded database's files at `pgdata` when there are none yet, in a child process.
 * PGlite runs initdb in a second instance whose memory (about 450 MB) the process keeps until it
 * ends: created in a child that exits, the first start costs no more than any later one. The child
 * writes beside `pgdata` and the directory is renamed into place once complete, so a first start
 * interrupted midway leaves nothing half-made to resume from. Returns whether it created them.
 */
export async function createPgliteDataDir(pgdata: string, startParams: string[]): Promise<boolean> {
  // A directory without PG_VERSION is one a PGlite of old began; it goes on as it always did.
  if (existsSync(pgdata)) return false;
  const staging = `${pgdata}.creating`;
  rmSync(staging, { recursive: true, force: true });
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const child = spawn(process.execPath, ['-e', CREATE_PROGRAM, entry, staging, JSON.stringify(startParams)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0 || !existsSync(join(staging, 'PG_VERSION'))) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`Could not create the embedded database in ${pgdata} (exit code ${code}).\n${stderr.trim()}`);
  }
  renameSync(staging, pgdata);
  return true;
}
