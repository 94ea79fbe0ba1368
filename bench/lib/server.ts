import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { request } from './http';

/** The repository root (bench/lib/ is two levels below it). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The server under test; BENCH_SERVER_BUNDLE points at another build (e.g. a candidate change) to compare. */
export const defaultServerBundle = () =>
  resolve(process.env.BENCH_SERVER_BUNDLE || join(repoRoot, 'dist', 'server', 'main.js'));
const bareServerScript = join(repoRoot, 'bench', 'bare-server.mjs');

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_KEEP = 16_000;

export interface ChildServer {
  name: string;
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  pid: number;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  output(): string;
  /** Stops the child (SIGTERM, then SIGKILL) and removes its temporary data directory. Idempotent. */
  stop(): Promise<void>;
}

export interface DisparoServer extends ChildServer {
  dataDir: string;
  admin: { username: string; password: string };
}

// Every child and temporary directory still alive, so that any exit of the bench (error, Ctrl-C)
// takes them down too.
const liveChildren = new Set<ChildProcess>();
const liveDirs = new Set<string>();

function killEverything(): void {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  liveChildren.clear();
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  liveDirs.clear();
}

process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killEverything();
    process.exit(130);
  });
}

/** A port that was free a moment ago on the loopback address. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolvePort(port) : reject(new Error('no free port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function spawnServer(opts: {
  name: string;
  script: string;
  env: Record<string, string>;
  dataDir?: string;
  nodeArgs?: string[];
}): Promise<ChildServer> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const nodeArgs = opts.nodeArgs ?? [];
  const child = spawn(process.execPath, [...nodeArgs, opts.script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...opts.env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  if (opts.dataDir) liveDirs.add(opts.dataDir);

  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((r) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      liveChildren.delete(child);
      r();
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exitPromise;
        clearTimeout(timer);
      }
      if (opts.dataDir) {
        rmSync(opts.dataDir, { recursive: true, force: true });
        liveDirs.delete(opts.dataDir);
      }
    })();
    return stopping;
  };

  const server: ChildServer = { name: opts.name, url, pid: child.pid ?? -1, output: () => output, stop };
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (exited) throw new Error(`${opts.name} exited early (code ${exited.code}, signal ${exited.signal})`);
      if (Date.now() > deadline) throw new Error(`${opts.name} not ready after ${READY_TIMEOUT_MS / 1000} s`);
      const health = await request(url, 'GET', '/api/health', { timeoutMs: 1_000 }).catch(() => undefined);
      if (health?.status === 200 && health.body.includes('"ok":true')) break;
      await sleep(100);
    }
  } catch (err) {
    await stop();
    const tail = output.trim() ? `\n--- ${opts.name} output ---\n${output.trim()}` : '';
    throw new Error(`${(err as Error).message}${tail}`);
  }
  return server;
}

/**
 * BENCH_DATABASE_URL (a PostgreSQL server URL) runs the Disparo servers on PostgreSQL instead of the
 * embedded database: each gets a fresh database there, dropped when it stops.
 */
async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `disparo_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The built Disparo server (dist/server/main.js) with a fresh embedded database in a temporary
 * directory, or a fresh PostgreSQL database when BENCH_DATABASE_URL is set.
 */
export async function startDisparo(bundle = defaultServerBundle()): Promise<DisparoServer> {
  if (!existsSync(bundle)) {
    throw new Error(`${bundle} is missing: run \`npm run build\` (or \`node scripts/build-server.mjs\`) first`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-'));
  const admin = { username: 'benchadmin', password: 'bench-admin-password-1' };
  const started = Date.now();
  // BENCH_CPU_PROF=1 writes a V8 CPU profile of every Disparo server to bench/out/profiles/ (open it in
  // Chrome DevTools or speedscope).
  const profileDir = join(repoRoot, 'bench', 'out', 'profiles');
  const nodeArgs = process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const postgres = await freshPostgresDatabase();
  const server = await spawnServer({
    name: 'disparo',
    script: bundle,
    dataDir,
    nodeArgs,
    env: {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      LOGIN_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'warn',
      // Never reach out to WhatsApp from a benchmark.
      WHATSAPP_DRIVER: 'simulator',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
  }).catch(async (err) => {
    await postgres?.drop();
    throw err;
  });
  console.log(
    `  disparo server pid ${server.pid} ready at ${server.url} in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (postgres ? ' (PostgreSQL)' : ' (embedded database)'),
  );
  const stop = async () => {
    await server.stop();
    await postgres?.drop();
  };
  return { ...server, stop, dataDir, admin };
}

/** The bare node:http baseline (bench/bare-server.mjs). */
export async function startBareServer(): Promise<ChildServer> {
  const server = await spawnServer({ name: 'bare node:http', script: bareServerScript, env: {} });
  console.log(`  bare node:http server pid ${server.pid} ready at ${server.url}`);
  return server;
}

/** Runs `body` with a started server and always stops the server afterwards. */
export async function withServer<S extends ChildServer, T>(
  start: () => Promise<S>,
  body: (server: S) => Promise<T>,
): Promise<T> {
  const server = await start();
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

/** Resident memory of a process in MB (Linux /proc), NaN elsewhere. */
export function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 10 ms steps), NaN elsewhere. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat(5)) are in clock ticks, 100 per second on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
