/**
 * Limits how many async jobs run at once; the rest wait in order. A released slot passes straight
 * to the next waiter, so the limit holds even between a release and the waiter waking up.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}

  private async acquire(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  /**
   * Inside `run`: gives the slot up while waiting on something outside (a network call), and takes
   * one again before going on, so a slow wait does not hold others up.
   */
  async outside<T>(wait: () => Promise<T>): Promise<T> {
    this.release();
    try {
      return await wait();
    } finally {
      await this.acquire();
    }
  }

  /** Jobs running now (tests). */
  get active(): number {
    return this.running;
  }
}
