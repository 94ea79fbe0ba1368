import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  launchDisparo,
  type NodeServer,
  repoRoot,
  serverBundle,
  startNodeServer,
} from '../../scripts/launch-server.mjs';
import { request } from './http';

export { repoRoot };
/** The server under test; BENCH_SERVER_BUNDLE points at another build (e.g. a candidate change) to compare. */
export const defaultServerBundle = () => resolve(process.env.BENCH_SERVER_BUNDLE || serverBundle);
const bareServerScript = join(repoRoot, 'bench', 'bare-server.mjs');

const READY_TIMEOUT_MS = 60_000;

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

/** Only what a child needs from this environment: the benchmarks set the rest. */
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Watches a started child until its health route answers (or it fails to), so that any exit of the
 * bench takes it down; stops it and throws with its output when it never becomes ready.
 */
export async function whenReady<S extends NodeServer>(server: S, dataDir?: string): Promise<S> {
  liveChildren.add(server.child);
  void server.exited.then(() => liveChildren.delete(server.child));
  if (dataDir) liveDirs.add(dataDir);
  const stop = server.stop;
  const stopAndForget = async () => {
    await stop();
    if (dataDir) liveDirs.delete(dataDir);
  };
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const exited = server.exitStatus();
      if (exited) throw new Error(`${server.name} exited early (code ${exited.code}, signal ${exited.signal})`);
      if (Date.now() > deadline) throw new Error(`${server.name} not ready after ${READY_TIMEOUT_MS / 1000} s`);
      const health = await request(server.url, 'GET', '/api/health', { timeoutMs: 1_000 }).catch(() => undefined);
      if (health?.status === 200 && health.body.includes('"ok":true')) break;
      await sleep(100);
    }
  } catch (err) {
    await stopAndForget();
    const output = server.output().trim();
    const tail = output ? `\n--- ${server.name} output ---\n${output}` : '';
    throw new Error(`${(err as Error).message}${tail}`);
  }
  return { ...server, stop: stopAndForget };
}

/**
 * The built Disparo server (dist/server/main.js) with a fresh embedded database in a temporary
 * directory, or a fresh PostgreSQL database when BENCH_DATABASE_URL (a PostgreSQL server URL) is set,
 * dropped when it stops. With DATABASE_URL in `extraEnv`, that database (the caller creates and
 * drops it).
 */
export async function startDisparo(
  bundle = defaultServerBundle(),
  extraEnv: Record<string, string> = {},
  extraNodeArgs: string[] = [],
): Promise<DisparoServer> {
  const admin = { username: 'benchadmin', password: 'bench-admin-password-1' };
  const started = Date.now();
  // BENCH_CPU_PROF=1 writes a V8 CPU profile of every Disparo server to bench/out/profiles/ (open it in
  // Chrome DevTools or speedscope).
  const profileDir = join(repoRoot, 'bench', 'out', 'profiles');
  const nodeArgs = [
    ...(process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...extraNodeArgs,
  ];
  // A DATABASE_URL of the caller's (a database it created and reads) wins over a fresh one.
  const postgresUrl = extraEnv.DATABASE_URL ? undefined : process.env.BENCH_DATABASE_URL;
  const launched = await launchDisparo({
    name: 'disparo',
    bundle,
    dataDirPrefix: 'disparo-bench-',
    postgres: postgresUrl ? { serverUrl: postgresUrl, prefix: 'disparo_bench' } : undefined,
    nodeArgs,
    output: 'capture',
    env: {
      ...baseEnv(),
      NODE_ENV: 'production',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      LOGIN_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'warn',
      // Never reach out to WhatsApp from a benchmark.
      WHATSAPP_DRIVER: 'simulator',
      ...extraEnv,
    },
  });
  const server = await whenReady(launched, launched.dataDir);
  console.log(
    `  disparo server pid ${server.pid} ready at ${server.url} in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (postgresUrl || extraEnv.DATABASE_URL ? ' (PostgreSQL)' : ' (embedded database)'),
  );
  return {
    name: server.name,
    url: server.url,
    pid: server.pid,
    output: server.output,
    stop: server.stop,
    dataDir: server.dataDir,
    admin,
  };
}

/**
 * The built Disparo server on a database the caller made and seeded (an embedded one in `dataDir`,
 * or PostgreSQL at `databaseUrl`); the caller removes it afterwards.
 */
export async function startDisparoOn(dataDir: string, databaseUrl?: string): Promise<NodeServer> {
  const server = await whenReady(
    await startNodeServer({
      name: 'disparo',
      script: defaultServerBundle(),
      output: 'capture',
      env: {
        ...baseEnv(),
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ADMIN_USERNAME: 'benchadmin',
        ADMIN_PASSWORD: 'bench-admin-password-1',
        LOGIN_RATE_LIMIT: '1000000',
        LOG_LEVEL: 'warn',
        WHATSAPP_DRIVER: 'simulator',
      },
    }),
  );
  console.log(
    `  disparo server pid ${server.pid} ready at ${server.url} (${databaseUrl ? 'PostgreSQL' : 'embedded database'})`,
  );
  return server;
}

/** The bare node:http baseline (bench/bare-server.mjs). */
export async function startBareServer(): Promise<ChildServer> {
  const started = await startNodeServer({
    name: 'bare node:http',
    script: bareServerScript,
    env: baseEnv(),
    output: 'capture',
  });
  const server = await whenReady(started);
  console.log(`  bare node:http server pid ${server.pid} ready at ${server.url}`);
  return { name: server.name, url: server.url, pid: server.pid, output: server.output, stop: server.stop };
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
