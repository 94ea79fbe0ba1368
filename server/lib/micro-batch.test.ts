import { describe, expect, it } from 'vitest';
import { MicroBatch } from './micro-batch';

describe('MicroBatch', () => {
  it('flushes what arrives together in one go, and what arrives during a flush in the next', async () => {
    const flushes: number[][] = [];
    let hold: Promise<void> = Promise.resolve();
    const batch = new MicroBatch<number, number>(async (items) => {
      flushes.push(items);
      await hold;
      return items.map((n) => n * 10);
    });
    let release = () => {};
    hold = new Promise((r) => {
      release = r;
    });
    const first = [batch.add(1), batch.add(2), batch.add(3)];
    await new Promise((r) => setImmediate(r));
    const second = [batch.add(4), batch.add(5)];
    await new Promise((r) => setImmediate(r));
    expect(flushes).toEqual([[1, 2, 3]]); // the second group waits for the first flush
    hold = Promise.resolve();
    release();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(flushes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('fails every caller of a flush that fails, and goes on with the next', async () => {
    let fail = true;
    const batch = new MicroBatch<string, string>(async (items) => {
      if (fail) throw new Error('database away');
      return items;
    });
    await expect(Promise.all([batch.add('a'), batch.add('b')])).rejects.toThrow('database away');
    fail = false;
    expect(await batch.add('c')).toBe('c');
  });
});
