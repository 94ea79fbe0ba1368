// Starts the built server (dist/server/main.js) as a child process, for the browser tests
// (e2e/server.mjs) and the benchmarks (bench/lib/server.ts): a fresh data directory, optionally a
// fresh PostgreSQL database, PORT and HOST, and a stop() that sends SIGTERM (SIGKILL if the child
// outlives the grace period) and then removes the directory and drops the database.
// Plain ESM so `node e2e/server.mjs` runs it without a loader; types in launch-server.d.mts.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The repository root (this file sits in scripts/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The built server. */
export const serverBundle = join(repoRoot, 'dist', 'server', 'main.js');

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_STOP_TIMEOUT_MS = 5_000;
const OUTPUT_KEEP = 16_000;

/** A port that was free a moment ago on `host`. */
export function freePort(host = DEFAULT_HOST) {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolvePort(port) : reject(new Error('no free port'))));
    });
  });
}

/** Creates a database named `<prefix>_<random>` on the PostgreSQL server at `serverUrl`. */
export async function createDatabase(serverUrl, prefix) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Starts a Node script that serves HTTP on HOST:PORT (given to it in its environment). It does not
 * wait for the server to answer: the caller polls its health route.
 */
export async function startNodeServer(opts) {
  const host = opts.host ?? DEFAULT_HOST;
  const port = opts.port ?? (await freePort(host));
  const capture = opts.output === 'capture';
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.script], {
    cwd: repoRoot,
    env: { ...opts.env, PORT: String(port), HOST: host },
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });

  let output = '';
  if (capture) {
    const keep = (chunk) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
  }

  let status;
  const exited = new Promise((resolveExit) => {
    child.once('exit', (code, signal) => {
      status = { code, signal };
      resolveExit(status);
    });
    // A child that cannot be spawned at all emits 'error' and never 'exit'.
    child.once('error', (err) => {
      output += `\n${err.message}`;
      status ??= { code: null, signal: null };
      resolveExit(status);
    });
  });

  const stopTimeoutMs = opts.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      if (!status) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
        await exited;
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  return {
    name: opts.name,
    url: `http://${host}:${port}`,
    port,
    pid: child.pid ?? -1,
    child,
    output: () => output,
    exitStatus: () => status,
    exited,
    stop,
  };
}

/**
 * The built Disparo server with a fresh data directory (DATA_DIR) and, with `postgres`, a fresh
 * database on that PostgreSQL server (DATABASE_URL); stop() removes both.
 */
export async function launchDisparo(opts) {
  const bundle = opts.bundle ?? serverBundle;
  if (!existsSync(bundle)) {
    throw new Error(`${bundle} is missing: run \`npm run build\` (or \`node scripts/build-server.mjs\`) first`);
  }
  const database = opts.postgres ? await createDatabase(opts.postgres.serverUrl, opts.postgres.prefix) : undefined;
  let dataDir;
  let server;
  try {
    dataDir = mkdtempSync(join(tmpdir(), opts.dataDirPrefix));
    server = await startNodeServer({
      name: opts.name,
      script: bundle,
      host: opts.host,
      port: opts.port,
      nodeArgs: opts.nodeArgs,
      output: opts.output,
      stopTimeoutMs: opts.stopTimeoutMs,
      env: { ...opts.env, DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
    });
  } catch (err) {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    throw err;
  }

  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    })();
    return stopping;
  };
  return { ...server, stop, dataDir, databaseUrl: database?.url };
}
