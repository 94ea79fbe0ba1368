import { performance } from 'node:perf_hooks';

/** A burst: BURST_RUNS deliveries arrived within BURST_WINDOW_MS (500 a second or more). */
const BURST_RUNS = 10;
const BURST_WINDOW_MS = 20;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Work someone is waiting on (Meta waiting for a webhook's 200) goes before background work (the
 * chatbot's replies, the webhooks' records) on the one thread. Background statements always take
 * their turn after pending I/O; while foreground work is under way — or, in a burst, ended less
 * than `lingerMs` ago, since a burst's webhooks each take a fraction of a millisecond and arrive
 * between event-loop turns — they go one at a time and together use at most `share` of the thread's
 * time (a statement that took 3 ms is followed by 27 ms of foreground-only time at 10 %). A burst
 * of webhooks so keeps nearly the whole thread and the embedded database's one connection, and the
 * background catches up as soon as it ends. A steady stream of webhooks slows the background down
 * but cannot stop it. Waiting costs nothing: a timer, or the moment a statement ends.
 */
export class Foreground {
  private active = 0;
  /** When the last foreground work ended. */
  private endedAt = Number.NEGATIVE_INFINITY;
  /** When the next background statement may start while foreground work is under way. */
  private nextBackgroundAt = 0;
  /** Background statements under way. */
  private running = 0;
  private waiters = new Set<() => void>();
  private lingerTimer: NodeJS.Timeout | undefined;
  /** When the last BURST_RUNS deliveries arrived (a ring). */
  private readonly arrivals = new Float64Array(BURST_RUNS).fill(Number.NEGATIVE_INFINITY);
  private arrivalCount = 0;

  constructor(
    private readonly share = 0.1,
    private readonly lingerMs = 10,
  ) {}

  /**
   * A delivery someone is waiting on has proved itself (a webhook whose signature checked out): it
   * counts towards a burst. Only such deliveries run as foreground work at all: a request that has
   * proved nothing (a slow body, a forged signature, a wrong key) costs the background nothing.
   */
  arrived(): void {
    this.arrivals[this.arrivalCount++ % BURST_RUNS] = performance.now();
  }

  /** Foreground work under way now (tests). */
  get underWay(): number {
    return this.active;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      if (--this.active === 0) {
        this.endedAt = performance.now();
        // Statements held only by the foreground go when the linger is over.
        clearTimeout(this.lingerTimer);
        if (this.waiters.size) this.lingerTimer = setTimeout(() => this.wakeAll(), this.lingerMs).unref();
      }
    }
  }

  /**
   * Foreground work under way, or a burst of it not over yet: the last one ended less than
   * `lingerMs` ago, and the last BURST_RUNS deliveries arrived within BURST_WINDOW_MS. A steady stream (150
   * webhooks/s) is no burst: its replies go at full speed between the webhooks, or they would fall
   * further behind with every second of it.
   */
  private busy(now = performance.now()): boolean {
    if (this.active > 0) return true;
    if (now - this.endedAt >= this.lingerMs) return false;
    return now - this.arrivals[this.arrivalCount % BURST_RUNS] < BURST_WINDOW_MS;
  }

  /**
   * Runs one background statement when its turn comes: after pending I/O and, while foreground
   * work is under way, alone and after the pause the previous one earned.
   */
  async background<T>(statement: () => Promise<T>): Promise<T> {
    await nextTurn();
    for (;;) {
      const now = performance.now();
      if (!this.busy(now)) break;
      if (this.running > 0) {
        await this.wait(undefined);
        continue;
      }
      if (now >= this.nextBackgroundAt) break;
      await this.wait(this.nextBackgroundAt - now);
    }
    this.running++;
    const started = performance.now();
    try {
      return await statement();
    } finally {
      this.running--;
      const ended = performance.now();
      if (this.busy(ended)) {
        const pause = (ended - started) * (1 / this.share - 1);
        this.nextBackgroundAt = Math.max(this.nextBackgroundAt, ended + pause);
      }
      this.wakeAll();
    }
  }

  /** Until woken (a background statement done, the foreground's linger over) or `ms` passed. */
  private wait(ms: number | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => wake(), ms);
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      this.waiters.add(wake);
    });
  }

  private wakeAll(): void {
    if (!this.waiters.size) return;
    const wake = [...this.waiters];
    this.waiters.clear();
    for (const w of wake) w();
  }
}
