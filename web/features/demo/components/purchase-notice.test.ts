import { describe, expect, it } from 'vitest';
import { noticeDelaySec, timeAgo } from './purchase-notice';

describe('demo purchase notice', () => {
  it('waits 3, 10, 15, 25, 40, 60, 90 s, then 90 s again', () => {
    expect(Array.from({ length: 10 }, (_, i) => noticeDelaySec(i))).toEqual([3, 10, 15, 25, 40, 60, 90, 90, 90, 90]);
  });

  it('says how long ago the real activation happened', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(timeAgo('2026-11-22T11:48:00Z', now)).toBe('há 12 min');
    expect(timeAgo('2026-11-22T11:59:50Z', now)).toBe('há 1 min');
    expect(timeAgo('2026-11-22T09:00:00Z', now)).toBe('há 3 h');
    expect(timeAgo('2026-11-21T11:00:00Z', now)).toBe('há 1 dia');
    expect(timeAgo('2026-11-12T12:00:00Z', now)).toBe('há 10 dias');
  });
});
