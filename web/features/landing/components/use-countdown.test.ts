import { describe, expect, it } from 'vitest';
import { COUNTDOWN_START_SEC, countdownAt, formatCountdown } from './use-countdown';

describe('landing countdown', () => {
  it('starts at 4:23:15, counts down and loops after zero', () => {
    expect(formatCountdown(countdownAt(0))).toBe('4:23:15');
    expect(formatCountdown(countdownAt(1))).toBe('4:23:14');
    expect(formatCountdown(countdownAt(75))).toBe('4:22:00');
    expect(formatCountdown(countdownAt(COUNTDOWN_START_SEC))).toBe('0:00:00');
    expect(formatCountdown(countdownAt(COUNTDOWN_START_SEC + 1))).toBe('4:23:15');
    expect(formatCountdown(countdownAt(COUNTDOWN_START_SEC + 2))).toBe('4:23:14');
  });
});
