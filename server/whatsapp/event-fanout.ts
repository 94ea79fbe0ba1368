import type { FastifyBaseLogger } from 'fastify';
import { KeyedBatches } from '../lib/keyed-batches';
import type { ConnectionEntry } from './connection-directory';
import type { Driver, Receipt, WhatsappEvents, WhatsappSubscriber } from './driver';

/**
 * Passes the drivers' events on to the subscribers the app gave (the engines), with the account
 * and the number they came from. A subscriber that throws is logged, never felt by the driver.
 */
export class EventFanout {
  /**
   * Receipts go to the subscribers in batches per account, one batch at a time: a webhook of
   * thousands of statuses is a few statements at a time, not thousands at once.
   */
  private readonly receipts = new KeyedBatches<Receipt>(async (key, receipts) => {
    const [userId, connectionId] = key.split('\n');
    await this.emit('receipts', { userId, connectionId, receipts });
  });

  constructor(
    private readonly subscribers: WhatsappSubscriber[],
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A driver's receipts and inbound messages reach the subscribers. */
  attach(entry: Pick<ConnectionEntry, 'id' | 'userId'>, driver: Driver): void {
    const { id: connectionId, userId } = entry;
    const batchKey = `${userId}\n${connectionId}`;
    driver.on('receipt', (receipt) => this.receipts.add(batchKey, receipt));
    driver.on('inbound', (message) => void this.emit('inbound', { userId, connectionId, message, driver }));
  }

  emit<E extends keyof WhatsappEvents>(event: E, payload: Parameters<WhatsappEvents[E]>[0]): Promise<unknown> {
    const running: Array<Promise<void>> = [];
    for (const subscriber of this.subscribers) {
      const handler = subscriber[event] as ((p: typeof payload) => void | Promise<void>) | undefined;
      if (!handler) continue;
      try {
        const done = handler(payload);
        if (done) {
          running.push(done.catch((err) => this.log.error({ err, event }, 'a WhatsApp event subscriber failed')));
        }
      } catch (err) {
        this.log.error({ err, event }, 'a WhatsApp event subscriber failed');
      }
    }
    return Promise.all(running);
  }

  /** Resolves once the receipts received so far have been handed to every subscriber and dealt with. */
  receiptsSettled(): Promise<void> {
    return this.receipts.idle();
  }
}
