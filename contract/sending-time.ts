/**
 * The rules of sending time, shared by the engines (the send loop and the chatbot's out-of-hours
 * message) and the browser (the campaign dialog's forecast): business hours and the mean gap
 * between two personal-number messages, on the São Paulo clock (sao-paulo-time.ts). Pure functions
 * of their arguments.
 */

import { fromSaoPaulo, nextSaoPauloMidnight, saoPauloParts } from './sao-paulo-time';

const DAY_MS = 86_400_000;

/** Random extra wait added to every gap: at least 1 s, or 30 % of the configured delay when larger. */
export function jitterMaxMs(delaySeconds: number): number {
  return Math.max(1000, delaySeconds * 300);
}

/** The mean gap, for estimates (expected finish time). */
export function meanGapMs(delaySeconds: number): number {
  return delaySeconds * 1000 + jitterMaxMs(delaySeconds) / 2;
}

/**
 * The account's business hours as its settings keep them (SPEC §9): the one shape the engine, the
 * chatbot and the campaign dialog's forecast read (the bot config shows the same hours as start,
 * end and days).
 */
export interface BusinessHours {
  respectBusinessHours: boolean;
  businessStart: string;
  businessEnd: string;
  businessDays: readonly string[];
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h || 0) * 60 + (m || 0);
};

/**
 * Whether messages may go out now, and if not, when the next business period opens (São Paulo
 * time). With business hours not respected, always open. An end of 23:59, the latest the field
 * takes, runs to midnight: 00:00–23:59 every day is open around the clock.
 */
export function businessWindow(hours: BusinessHours, at: Date): { open: boolean; opensAt: Date | null } {
  if (!hours.respectBusinessHours) return { open: true, opensAt: null };
  const start = minutesOf(hours.businessStart);
  const end = hours.businessEnd === '23:59' ? 24 * 60 : minutesOf(hours.businessEnd);
  if (end <= start || hours.businessDays.length === 0) return { open: false, opensAt: null };
  const now = saoPauloParts(at);
  const nowMinutes = now.hour * 60 + now.minute;
  if (hours.businessDays.includes(now.weekday) && nowMinutes >= start && nowMinutes < end) {
    return { open: true, opensAt: null };
  }
  // The next day (today included, when before the start) that is a business day.
  for (let offset = 0; offset <= 7; offset++) {
    const day = saoPauloParts(new Date(at.getTime() + offset * DAY_MS));
    if (!hours.businessDays.includes(day.weekday)) continue;
    if (offset === 0 && nowMinutes >= start) continue;
    return {
      open: false,
      opensAt: fromSaoPaulo(day.year, day.month, day.day, Math.floor(start / 60), start % 60),
    };
  }
  return { open: false, opensAt: null };
}

/**
 * When the business period holding `at` ends (São Paulo time): the day's end hour, or midnight for
 * an end of 23:59 and when business hours are not respected. Meant for an instant the window says
 * is open.
 */
export function businessCloseAt(hours: BusinessHours, at: Date): Date {
  if (!hours.respectBusinessHours || hours.businessEnd === '23:59') return nextSaoPauloMidnight(at);
  const end = minutesOf(hours.businessEnd);
  const p = saoPauloParts(at);
  return fromSaoPaulo(p.year, p.month, p.day, Math.floor(end / 60), end % 60);
}
