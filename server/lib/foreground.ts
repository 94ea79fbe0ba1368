const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Work someone is waiting on (Meta waiting for a webhook's 200) goes before background work (the
 * chatbot's replies) on the one thread: background statements take their turn after pending I/O,
 * and while foreground work is under way they wait a little longer — never more than `maxWaitMs`
 * each, so a steady stream of webhooks slows the replies down but cannot stop them.
 */
export class Foreground {
  private active = 0;

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
    }
  }

  async turn(maxWaitMs = 20): Promise<void> {
    const until = Date.now() + maxWaitMs;
    do await nextTurn();
    while (this.active > 0 && Date.now() < until);
  }
}
