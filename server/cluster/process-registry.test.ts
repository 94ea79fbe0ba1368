import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-db';
import { ProcessRegistry, rendezvousOwner } from './process-registry';

describe('rendezvous hashing', () => {
  it('spreads keys evenly, and a member leaving moves only its own keys', () => {
    const members = ['host:1:a', 'host:2:b', 'host:3:c'];
    const keys = Array.from({ length: 3000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const owners = keys.map((k) => rendezvousOwner(members, k));
    for (const m of members) {
      const share = owners.filter((o) => o === m).length / keys.length;
      expect(share).toBeGreaterThan(0.28);
      expect(share).toBeLessThan(0.39);
    }
    const left = members.filter((m) => m !== 'host:2:b');
    keys.forEach((k, i) => {
      const now = rendezvousOwner(left, k);
      if (owners[i] !== 'host:2:b') expect(now).toBe(owners[i]);
      else expect(left).toContain(now);
    });
    expect(rendezvousOwner([], 'x')).toBeNull();
  });
});

describe('the process registry', () => {
  it('sees the others join, drain and die, and agrees with them on every owner', async () => {
    const database = await createTestDatabase();
    const { db } = database;
    try {
      // The dead-after leaves a busy machine room: a beat late by a second is still alive.
      const DEAD_AFTER_MS = 2_000;
      const a = new ProcessRegistry(db, { id: 'a', beatMs: 50, deadAfterMs: DEAD_AFTER_MS });
      // b beats only when told: stopping its beats is how a killed process looks.
      const b = new ProcessRegistry(db, { id: 'b', beatMs: 600_000, deadAfterMs: DEAD_AFTER_MS });
      await a.join();
      expect(a.live()).toEqual(['a']);
      expect(a.owns('anything')).toBe(true);
      await b.join();
      await a.refresh();
      expect(a.live()).toEqual(['a', 'b']);
      const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
      for (const k of keys) expect(a.ownerOf(k)).toBe(b.ownerOf(k));
      expect(keys.filter((k) => a.owns(k)).length + keys.filter((k) => b.owns(k)).length).toBe(keys.length);

      // b drains: it owns nothing any more, and a takes everything once it reads the list.
      await b.drain();
      expect(keys.some((k) => b.owns(k))).toBe(false);
      await a.refresh();
      expect(a.live()).toEqual(['a']);

      // A second b that beats once and then never again (killed): gone for a after the dead-after,
      // and a is told who left.
      const gone: string[][] = [];
      a.onChange((_, left) => gone.push(left));
      const killed = new ProcessRegistry(db, { id: 'c', beatMs: 600_000, deadAfterMs: DEAD_AFTER_MS });
      await killed.join();
      await a.refresh();
      expect(a.live()).toEqual(['a', 'c']);
      await new Promise((r) => setTimeout(r, DEAD_AFTER_MS + 300));
      await a.refresh();
      expect(a.live()).toEqual(['a']);
      expect(gone.at(-1)).toEqual(['c']);
      await a.leave();
      await b.leave();
      await killed.leave();
    } finally {
      await database.close();
    }
  });
});
