import { describe, expect, it } from 'vitest';
import { weekdays } from '../../contract/bot';
import { nextSaoPauloMidnight, startOfSaoPauloDay } from '../../contract/sao-paulo-time';
import {
  backoffMs,
  businessWindow,
  jitterMaxMs,
  nextGapMs,
  remainingToday,
  typingMs,
  WARMUP_DAILY_CAPS,
  warmupCap,
} from './pacing';

const hours = {
  respectBusinessHours: true,
  businessStart: '09:00',
  businessEnd: '18:00',
  businessDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
};

describe('gaps between personal-number messages', () => {
  it('stay between the delay and the delay plus its jitter, and vary', () => {
    const gaps = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const gap = nextGapMs(2);
      expect(gap).toBeGreaterThanOrEqual(2000);
      expect(gap).toBeLessThan(2000 + jitterMaxMs(2));
      gaps.add(gap);
    }
    // No fixed rhythm: hundreds of different gaps.
    expect(gaps.size).toBeGreaterThan(100);
  });

  it('reach both ends of the jitter', () => {
    expect(nextGapMs(10, () => 0)).toBe(10_000);
    expect(nextGapMs(10, () => 0.999_999)).toBe(10_000 + jitterMaxMs(10) - 1);
    expect(jitterMaxMs(1)).toBe(1000);
    expect(jitterMaxMs(60)).toBe(18_000);
  });

  it('typing grows with the text, within bounds', () => {
    expect(typingMs(0)).toBe(800);
    expect(typingMs(40)).toBeGreaterThan(typingMs(10));
    expect(typingMs(10_000)).toBe(5000);
  });

  it('retries back off, doubling up to a ceiling', () => {
    expect(backoffMs(1, () => 0.5)).toBe(30_000);
    expect(backoffMs(2, () => 0.5)).toBe(60_000);
    expect(backoffMs(20, () => 0.5)).toBe(15 * 60_000);
    expect(backoffMs(1, () => 0)).toBe(24_000);
  });
});

describe('the São Paulo day of the daily limit', () => {
  it('starts at midnight in São Paulo, not UTC', () => {
    // 02:30 UTC on the 15th is 23:30 on the 14th in São Paulo (UTC−3).
    const late = new Date('2026-03-15T02:30:00Z');
    expect(startOfSaoPauloDay(late).toISOString()).toBe('2026-03-14T03:00:00.000Z');
    expect(nextSaoPauloMidnight(late).toISOString()).toBe('2026-03-15T03:00:00.000Z');
    // 03:30 UTC is already the 15th there.
    expect(startOfSaoPauloDay(new Date('2026-03-15T03:30:00Z')).toISOString()).toBe('2026-03-15T03:00:00.000Z');
  });

  it('counts across midnight: what was sent before midnight no longer counts after it', () => {
    const before = new Date('2026-03-15T02:59:00Z');
    const after = new Date('2026-03-15T03:01:00Z');
    expect(startOfSaoPauloDay(before).getTime()).toBeLessThan(startOfSaoPauloDay(after).getTime());
    expect(remainingToday({ dailyLimit: 100, sentToday: 100, warmup: null, at: before })).toBe(0);
    expect(remainingToday({ dailyLimit: 100, sentToday: 0, warmup: null, at: after })).toBe(100);
  });
});

describe('business hours', () => {
  it('are open inside the hours on a business day (São Paulo time)', () => {
    // Monday 2026-03-16 10:00 in São Paulo = 13:00 UTC.
    expect(businessWindow(hours, new Date('2026-03-16T13:00:00Z'))).toEqual({ open: true, opensAt: null });
  });

  it('closed before the start opens the same day', () => {
    // Monday 08:00 there.
    const w = businessWindow(hours, new Date('2026-03-16T11:00:00Z'));
    expect(w.open).toBe(false);
    expect(w.opensAt?.toISOString()).toBe('2026-03-16T12:00:00.000Z');
  });

  it('closed after the end on Friday opens on Monday', () => {
    // Friday 2026-03-20 18:30 there.
    const w = businessWindow(hours, new Date('2026-03-20T21:30:00Z'));
    expect(w.open).toBe(false);
    expect(w.opensAt?.toISOString()).toBe('2026-03-23T12:00:00.000Z');
  });

  it('the end is exclusive and the weekend closed', () => {
    expect(businessWindow(hours, new Date('2026-03-16T21:00:00Z')).open).toBe(false);
    expect(businessWindow(hours, new Date('2026-03-21T13:00:00Z')).open).toBe(false);
  });

  it('an end of 23:59 runs to midnight: 00:00–23:59 every day is open around the clock', () => {
    const allDay = { ...hours, businessStart: '00:00', businessEnd: '23:59', businessDays: [...weekdays] };
    // Saturday 2026-03-21 23:59:30 in São Paulo, then Sunday 00:00.
    expect(businessWindow(allDay, new Date('2026-03-22T02:59:30Z')).open).toBe(true);
    expect(businessWindow(allDay, new Date('2026-03-22T03:00:00Z')).open).toBe(true);
    // Any other end stays exclusive: Monday 23:58:30 with hours until 23:58.
    expect(businessWindow({ ...hours, businessEnd: '23:58' }, new Date('2026-03-17T02:58:30Z')).open).toBe(false);
  });

  it('are always open when not respected', () => {
    expect(businessWindow({ ...hours, respectBusinessHours: false }, new Date('2026-03-21T05:00:00Z')).open).toBe(true);
  });
});

describe('warm-up of a new number', () => {
  const start = new Date('2026-03-16T13:00:00Z');
  const day = (n: number) => new Date(start.getTime() + n * 86_400_000);

  it('caps each of the first seven days, then only the account limit', () => {
    for (let d = 0; d < 7; d++) {
      expect(warmupCap({ warmupStartedAt: start, lastSentAt: day(d) }, day(d))).toBe(WARMUP_DAILY_CAPS[d]);
    }
    expect(warmupCap({ warmupStartedAt: start, lastSentAt: day(7) }, day(7))).toBeNull();
    expect(WARMUP_DAILY_CAPS).toEqual([20, 36, 65, 117, 210, 378, 680]);
  });

  it('a number that never sent starts on day one', () => {
    expect(warmupCap({ warmupStartedAt: null, lastSentAt: null }, start)).toBe(20);
  });

  it('restarts after 72 h without sending', () => {
    const lastSent = day(3);
    expect(
      warmupCap({ warmupStartedAt: start, lastSentAt: lastSent }, new Date(lastSent.getTime() + 71 * 3_600_000)),
    ).toBe(WARMUP_DAILY_CAPS[6]);
    expect(
      warmupCap({ warmupStartedAt: start, lastSentAt: lastSent }, new Date(lastSent.getTime() + 72 * 3_600_000)),
    ).toBe(20);
  });

  it('lowers the daily limit, never raises it', () => {
    const warm = { warmupStartedAt: start, lastSentAt: start };
    expect(remainingToday({ dailyLimit: 1000, sentToday: 5, warmup: warm, at: start })).toBe(15);
    expect(remainingToday({ dailyLimit: 10, sentToday: 5, warmup: warm, at: start })).toBe(5);
    expect(remainingToday({ dailyLimit: 1000, sentToday: 30, warmup: warm, at: start })).toBe(0);
  });
});
