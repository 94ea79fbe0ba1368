import { performance } from 'node:perf_hooks';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Work someone is waiting on (Meta waiting for a webhook's 200) goes before background work (the
 * chatbot's replies, the webhooks' records) on the one thread. Background statements always take
 * their turn after pending I/O; while foreground work is under way they go one at a time and
 * together use at most `share` of the thread's time (a statement that took 3 ms is followed by
 * 27 ms of foreground-only time at 10 %), so a burst of webhooks keeps nearly the whole thread and
 * the embedded database's one connection, and the background catches up when it ends. A steady
 * stream of webhooks slows the background down but cannot stop it. Waiting costs nothing: a timer,
 * or the moment the foreground work ends.
 */
export class Foreground {
  private active = 0;
  /** When the next background statement may start while foreground work is under way. */
  private nextBackgroundAt = 0;
  /** Background statements under way. */
  private running = 0;
  private waiters = new Set<() => void>();

  constructor(private readonly share = 0.1) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      if (--this.active === 0) this.wakeAll();
    }
  }

  /**
   * Runs one background statement when its turn comes: after pending I/O and, while foreground
   * work is under way, alone and after the pause the previous one earned.
   */
  async background<T>(statement: () => Promise<T>): Promise<T> {
    await nextTurn();
    while (this.active > 0 && (this.running > 0 || Date.now() < this.nextBackgroundAt)) {
      await this.wait(this.running > 0 ? undefined : this.nextBackgroundAt - Date.now());
    }
    this.running++;
    const started = performance.now();
    try {
      return await statement();
    } finally {
      this.running--;
      if (this.active > 0) {
        const pause = (performance.now() - started) * (1 / this.share - 1);
        this.nextBackgroundAt = Math.max(this.nextBackgroundAt, Date.now() + pause);
      }
      this.wakeAll();
    }
  }

  /** Until woken (foreground done, a background statement done) or `ms` passed. */
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
