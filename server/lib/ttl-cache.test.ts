import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('TtlCache', () => {
  it('serves an entry until its time is up; peek still sees it', () => {
    const c = clock();
    const cache = new TtlCache<string, number>({ ttlMs: 100, maxEntries: 10, now: c.now });
    cache.set('a', 1);
    c.advance(99);
    expect(cache.get('a')).toBe(1);
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
    // Still there to be checked again (peek), until set anew.
    expect(cache.peek('a')).toBe(1);
    cache.set('a', 2);
    expect(cache.get('a')).toBe(2);
  });

  it('set, delete and clear', () => {
    const cache = new TtlCache<string, string>({ ttlMs: 1_000, maxEntries: 10 });
    cache.set('a', 'x');
    cache.set('a', 'y');
    cache.set('b', 'z');
    expect(cache.get('a')).toBe('y');
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    cache.clear();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('an entry set with a stamp is served only while the stamp matches', () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 10 });
    cache.set('campanha', 5, 'in_progress');
    expect(cache.get('campanha', 'in_progress')).toBe(5);
    expect(cache.get('campanha', 'completed')).toBeUndefined();
    expect(cache.get('campanha')).toBeUndefined();
    cache.set('sem-selo', 1);
    expect(cache.get('sem-selo', 'x')).toBeUndefined();
    expect(cache.get('sem-selo')).toBe(1);
  });

  it('past maxEntries the least recently used leaves first', () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3);
    expect(cache.keys()).toEqual(['a', 'c']);
    expect(cache.get('b')).toBeUndefined();
  });

  it('past maxWeight the oldest leave until the rest fit, never the entry just set', () => {
    const cache = new TtlCache<string, number[]>({
      ttlMs: 1_000,
      maxEntries: 100,
      weigh: (rows) => rows.length,
      maxWeight: 5,
    });
    cache.set('a', [1, 2]);
    cache.set('b', [1, 2]);
    expect(cache.totalWeight).toBe(4);
    cache.set('c', [1, 2]);
    expect(cache.keys()).toEqual(['b', 'c']);
    expect(cache.totalWeight).toBe(4);
    cache.set('huge', [1, 2, 3, 4, 5, 6, 7]);
    expect(cache.keys()).toEqual(['huge']);
    expect(cache.totalWeight).toBe(7);
    cache.set('huge', [1]);
    expect(cache.totalWeight).toBe(1);
    cache.delete('huge');
    expect(cache.totalWeight).toBe(0);
  });

  it('deleteWhere drops the keys it is asked to', () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 10 });
    cache.set('u1:a', 1);
    cache.set('u1:b', 2);
    cache.set('u2:a', 3);
    cache.deleteWhere((key) => key.startsWith('u1:'));
    expect(cache.keys()).toEqual(['u2:a']);
  });
});
