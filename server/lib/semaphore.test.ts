import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore';

const tick = () => new Promise((r) => setImmediate(r));

describe('Semaphore', () => {
  it('never runs more jobs at once than its limit, and runs the waiting ones in order', async () => {
    const slots = new Semaphore(2);
    let now = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        slots.run(async () => {
          now++;
          peak = Math.max(peak, now);
          order.push(i);
          await tick();
          now--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slots.active).toBe(0);
  });

  it('gives the slot up while a job waits outside, and takes one back after', async () => {
    const slots = new Semaphore(1);
    let release = () => {};
    const external = new Promise<void>((r) => {
      release = r;
    });
    const events: string[] = [];
    const first = slots.run(async () => {
      events.push('first starts');
      await slots.outside(() => external);
      events.push('first goes on');
    });
    const second = slots.run(async () => {
      events.push('second runs');
    });
    await tick();
    // The first job waits outside: the second one got the only slot meanwhile.
    expect(events).toEqual(['first starts', 'second runs']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first starts', 'second runs', 'first goes on']);
    expect(slots.active).toBe(0);
  });
});
