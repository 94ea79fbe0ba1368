import { describe, expect, it } from 'vitest';
import { timeOrderedIds } from './ids';

describe('time-ordered ids', () => {
  it('are distinct UUIDv7 in creation order', () => {
    const ids = timeOrderedIds(5000);
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
  });

  it('none when none are asked for', () => {
    expect(timeOrderedIds(0)).toEqual([]);
  });
});
