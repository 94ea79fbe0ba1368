/**
 * Items handed in per key are dealt with in batches of at most `max`, one batch at a time per key,
 * different keys side by side. One account's flood of WhatsApp receipts then costs a few
 * statements at a time instead of thousands at once, and other accounts' receipts go on meanwhile.
 */
export class KeyedBatches<T> {
  private readonly pending = new Map<string, T[]>();
  private readonly draining = new Map<string, Promise<void>>();

  constructor(
    /** Deals with one batch; what it throws is its own to report (it is ignored here). */
    private readonly flush: (key: string, items: T[]) => Promise<void>,
    private readonly max = 500,
  ) {}

  add(key: string, item: T): void {
    const list = this.pending.get(key);
    if (list) list.push(item);
    else this.pending.set(key, [item]);
    if (!this.draining.has(key)) {
      const done = this.drain(key);
      this.draining.set(key, done);
    }
  }

  private async drain(key: string): Promise<void> {
    // Items handed in within the same turn of the event loop share the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      for (;;) {
        const list = this.pending.get(key);
        if (!list?.length) break;
        const batch = list.length <= this.max ? list : list.splice(0, this.max);
        if (batch === list) this.pending.delete(key);
        await this.flush(key, batch).catch(() => undefined);
      }
    } finally {
      this.draining.delete(key);
    }
  }

  /** Items waiting or being dealt with, across keys. */
  get size(): number {
    let n = 0;
    for (const list of this.pending.values()) n += list.length;
    return n + this.draining.size;
  }

  /** Resolves once every item handed in so far has been dealt with (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.draining.size) await Promise.all([...this.draining.values()]);
  }
}
