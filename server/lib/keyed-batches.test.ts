import { describe, expect, it } from 'vitest';
import { KeyedBatches } from './keyed-batches';

describe('KeyedBatches', () => {
  it('deals with one batch at a time per key, at most `max` items each, keys side by side', async () => {
    const seen: Array<{ key: string; items: number[] }> = [];
    let inFlight = new Map<string, number>();
    let maxInFlight = 0;
    const batches = new KeyedBatches<number>(async (key, items) => {
      const now = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, now);
      maxInFlight = Math.max(maxInFlight, now);
      seen.push({ key, items: [...items] });
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight.set(key, now - 1);
    }, 100);
    for (let i = 0; i < 250; i++) batches.add('a', i);
    batches.add('b', 1);
    await batches.idle();
    expect(maxInFlight).toBe(1);
    const a = seen.filter((s) => s.key === 'a');
    expect(a.map((s) => s.items.length)).toEqual([100, 100, 50]);
    expect(a.flatMap((s) => s.items)).toEqual([...Array(250).keys()]);
    expect(seen.filter((s) => s.key === 'b')).toEqual([{ key: 'b', items: [1] }]);
    inFlight = new Map();
    // A failing batch does not stop the ones after it.
    const done: number[] = [];
    const failing = new KeyedBatches<number>(async (_key, items) => {
      if (items[0] === 0) throw new Error('boom');
      done.push(...items);
    }, 1);
    failing.add('k', 0);
    failing.add('k', 1);
    await failing.idle();
    expect(done).toEqual([1]);
    expect(failing.size).toBe(0);
  });
});
