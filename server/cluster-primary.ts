import cluster, { type Worker } from 'node:cluster';
import { hostname } from 'node:os';
import type { Config } from './config';

/** A worker that dies this soon after its start waits longer before the next try (doubling, up to the cap). */
const STABLE_AFTER_MS = 30_000;
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/**
 * The primary has no Fastify and no database: a few lines in the workers' format (pino's JSON
 * lines), so one log reads the same from every process.
 */
function primaryLog(level: Config['LOG_LEVEL']) {
  const write = (name: 'info' | 'warn' | 'error', fields: Record<string, unknown>, msg: string) => {
    if (LEVELS[name] < LEVELS[level]) return;
    const line = { level: LEVELS[name], time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };
  return {
    info: (fields: Record<string, unknown>, msg: string) => write('info', fields, msg),
    warn: (fields: Record<string, unknown>, msg: string) => write('warn', fields, msg),
    error: (fields: Record<string, unknown>, msg: string) => write('error', fields, msg),
  };
}

/**
 * Cluster mode (WORKERS > 1 on PostgreSQL): called at the start of main(). In the primary it forks
 * the workers, keeps them running and stops them, and answers true: main() then returns, and each
 * worker runs the normal main on the shared port. Answers false where this process should serve
 * (one process, or a worker), after saying why WORKERS is ignored on the embedded database.
 */
export function runClusterPrimary(config: Config): boolean {
  if (config.WORKERS <= 1 || !cluster.isPrimary) return false;
  const log = primaryLog(config.LOG_LEVEL);
  if (!config.DATABASE_URL) {
    log.warn(
      { workers: config.WORKERS },
      `WORKERS=${config.WORKERS} ignored: the embedded database lives in one process, so the server runs as one; set DATABASE_URL to a PostgreSQL server to run several workers`,
    );
    return false;
  }
  startPrimary(config.WORKERS, log);
  return true;
}

interface Slot {
  worker: Worker | null;
  startedAt: number;
  /** The wait before the next restart of this slot after a quick death. */
  delayMs: number;
  restart: NodeJS.Timeout | undefined;
}

function startPrimary(count: number, log: ReturnType<typeof primaryLog>): void {
  const slots: Slot[] = Array.from({ length: count }, () => ({
    worker: null,
    startedAt: 0,
    delayMs: FIRST_RESTART_DELAY_MS,
    restart: undefined,
  }));
  let stopping = false;
  let failedExits = 0;

  const fork = (slot: Slot, index: number) => {
    slot.restart = undefined;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    worker.on('exit', (code, signal) => {
      slot.worker = null;
      if (stopping) {
        if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') failedExits++;
        if (slots.every((s) => s.worker === null)) {
          log.info({}, 'every worker has exited');
          process.exit(failedExits ? 1 : 0);
        }
        return;
      }
      // A worker that ran a while is restarted soon; one that keeps dying at start waits longer each time.
      const lived = Date.now() - slot.startedAt;
      slot.delayMs = lived >= STABLE_AFTER_MS ? FIRST_RESTART_DELAY_MS : slot.delayMs;
      log.error(
        { worker: index + 1, workerPid: worker.process.pid, code, signal, restartInMs: slot.delayMs },
        'worker exited unexpectedly; restarting it',
      );
      slot.restart = setTimeout(() => fork(slot, index), slot.delayMs);
      slot.delayMs = Math.min(slot.delayMs * 2, MAX_RESTART_DELAY_MS);
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: no more waiting for the workers to drain.
      log.warn({ signal }, 'second signal: killing the workers now');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      return;
    }
    stopping = true;
    for (const slot of slots) clearTimeout(slot.restart);
    const running = slots.filter((s) => s.worker !== null);
    log.info({ signal, workers: running.length }, 'stopping: the signal goes to every worker, which drains and exits');
    if (!running.length) process.exit(0);
    for (const slot of running) slot.worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log.info({ workers: count }, `cluster mode: starting ${count} worker processes on one port (PostgreSQL)`);
  slots.forEach(fork);
}
