import { describe, expect, it } from 'vitest';
import {
  firstName,
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  formatRelativeTime,
  formatRemaining,
  initials,
} from './format';

describe('format', () => {
  it('abbreviates counts with one decimal from 1,000 and 1,000,000', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,0K');
    expect(formatCount(15_420)).toBe('15,4K');
    expect(formatCount(999_949)).toBe('999,9K');
    expect(formatCount(999_999)).toBe('1,0M');
    expect(formatCount(2_500_000)).toBe('2,5M');
  });

  it('writes numbers, percentages and money the Brazilian way', () => {
    expect(formatNumber(1234)).toBe('1.234');
    expect(formatPercent(87.5)).toBe('87,5%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatMoney(25)).toBe('R$ 25,00');
    expect(formatMoney(1234.5)).toBe('R$ 1.234,50');
  });

  it('writes dates as dd/mm/aaaa and dd/mm/aaaa hh:mm', () => {
    const d = new Date(2026, 10, 22, 14, 5);
    expect(formatDate(d)).toBe('22/11/2026');
    expect(formatDateTime(d)).toBe('22/11/2026 14:05');
    expect(formatDate('not a date')).toBe('');
  });

  it("writes relative time in minutes, hours or days, and 'agora' under a minute", () => {
    const now = Date.UTC(2026, 10, 22, 12, 0);
    expect(formatRelativeTime(now, now)).toBe('agora');
    expect(formatRelativeTime(now - 59_999, now)).toBe('agora');
    expect(formatRelativeTime(now - 60_000, now)).toBe('1m atrás');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5m atrás');
    expect(formatRelativeTime(now - 59 * 60_000, now)).toBe('59m atrás');
    expect(formatRelativeTime(now - 60 * 60_000, now)).toBe('1h atrás');
    expect(formatRelativeTime(now - 23 * 3_600_000, now)).toBe('23h atrás');
    expect(formatRelativeTime(now - 50 * 3_600_000, now)).toBe('2d atrás');
    // A clock a little ahead of the server's is 'agora' too, never '0m atrás'.
    expect(formatRelativeTime(now + 60_000, now)).toBe('agora');
    expect(formatRelativeTime('not a date', now)).toBe('');
  });

  it('writes the remaining demo time in hours and minutes', () => {
    expect(formatRemaining((60 + 23) * 60_000)).toBe('1h 23min');
    expect(formatRemaining(45 * 60_000)).toBe('45min');
    expect(formatRemaining(0)).toBeNull();
  });

  it('derives initials and first names', () => {
    expect(initials('Maria da Silva')).toBe('MS');
    expect(initials('Ana')).toBe('AN');
    expect(initials('Élcio')).toBe('ÉL');
    expect(firstName('  João Pedro ')).toBe('João');
  });

  it('gives no initials for a contact without a name (the number in its place), so avatars show an icon', () => {
    expect(initials('+5521998765431')).toBeNull();
    expect(initials('+55 21 99876-5431')).toBeNull();
    expect(initials('')).toBeNull();
    expect(initials('   ')).toBeNull();
    expect(initials(null)).toBeNull();
  });
});
