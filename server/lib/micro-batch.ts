/**
 * Group commit: what callers hand in while a flush is under way (or within the same turn of the
 * event loop) is dealt with in one go by the next flush, and each caller gets its own result. A
 * burst of webhooks then costs a few statements instead of one each.
 */
export class MicroBatch<I, O> {
  private pending: Array<{ item: I; resolve: (out: O) => void; reject: (err: unknown) => void }> = [];
  private flushing = false;
  private scheduled = false;

  constructor(private readonly flush: (items: I[]) => Promise<O[]>) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    this.flushing = true;
    try {
      const out = await this.flush(batch.map((b) => b.item));
      for (let i = 0; i < batch.length; i++) batch[i].resolve(out[i] as O);
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.flushing = false;
      if (this.pending.length) this.schedule();
    }
  }
}
