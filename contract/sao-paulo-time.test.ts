import { describe, expect, it } from 'vitest';
import {
  nextSaoPauloMidnight,
  saoPauloDay,
  saoPauloHour,
  saoPauloMinute,
  saoPauloParts,
  saoPauloTimestamp,
  startOfSaoPauloDay,
} from './sao-paulo-time';

describe('the São Paulo clock', () => {
  // 22:30 in São Paulo on 25 Nov 2026 (UTC−3): already the 26th in UTC.
  const lateEvening = new Date('2026-11-26T01:30:15Z');

  it('reads the day, the hour and the wall-clock parts in São Paulo, not in UTC', () => {
    expect(saoPauloDay(lateEvening)).toBe('2026-11-25');
    expect(saoPauloHour(lateEvening)).toBe('2026-11-25T22:00:00');
    expect(saoPauloParts(lateEvening)).toEqual({
      year: 2026,
      month: 11,
      day: 25,
      hour: 22,
      minute: 30,
      second: 15,
      weekday: 'wednesday',
    });
  });

  it('finds the midnights that start and end the São Paulo day', () => {
    expect(startOfSaoPauloDay(lateEvening).toISOString()).toBe('2026-11-25T03:00:00.000Z');
    expect(nextSaoPauloMidnight(lateEvening).toISOString()).toBe('2026-11-26T03:00:00.000Z');
  });

  it('writes times with the offset the zone had then, and the Brazilian way to the minute', () => {
    expect(saoPauloTimestamp(lateEvening)).toBe('2026-11-25 22:30:15 -03:00');
    // Daylight saving time (until 2019): two hours behind UTC.
    expect(saoPauloTimestamp(new Date('2018-01-10T12:00:00Z'))).toBe('2018-01-10 10:00:00 -02:00');
    expect(saoPauloMinute(lateEvening)).toBe('25/11/2026 22:30');
  });
});
