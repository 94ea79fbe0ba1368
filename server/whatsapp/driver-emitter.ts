import { EventEmitter } from 'node:events';
import type { DriverEvents } from './driver';

/** The typed event half of every Driver; a listener that throws is isolated from the driver. */
export class DriverEmitter {
  private readonly emitter = new EventEmitter();

  on<E extends keyof DriverEvents>(event: E, listener: DriverEvents[E]): void {
    this.emitter.on(event, listener);
  }

  off<E extends keyof DriverEvents>(event: E, listener: DriverEvents[E]): void {
    this.emitter.off(event, listener);
  }

  protected emit<E extends keyof DriverEvents>(event: E, ...args: Parameters<DriverEvents[E]>): void {
    for (const listener of this.emitter.listeners(event)) {
      try {
        (listener as (...a: unknown[]) => void)(...args);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
