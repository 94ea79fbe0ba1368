/**
 * The clock of sending, shared by the engine (server/sending/pacing.ts re-exports it) and the
 * browser (the campaign dialog's forecast): São Paulo days, business hours, the mean gap between
 * two personal-number messages. Pure functions of their arguments.
 */

export const SAO_PAULO = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Random extra wait added to every gap: at least 1 s, or 30 % of the configured delay when larger. */
export function jitterMaxMs(delaySeconds: number): number {
  return Math.max(1000, delaySeconds * 300);
}

/** The mean gap, for estimates (expected finish time). */
export function meanGapMs(delaySeconds: number): number {
  return delaySeconds * 1000 + jitterMaxMs(delaySeconds) / 2;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: (typeof WEEKDAYS)[number];
}

const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: SAO_PAULO,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  weekday: 'long',
  hourCycle: 'h23',
});

/** The wall-clock parts of an instant in São Paulo. */
export function saoPauloParts(at: Date): LocalParts & { second: number } {
  const p: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(at)) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
    weekday: p.weekday.toLowerCase() as LocalParts['weekday'],
  };
}

/** The UTC instant of a São Paulo wall-clock time (whatever offset the zone has that day). */
function fromSaoPaulo(year: number, month: number, day: number, hour: number, minute: number): Date {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const p = saoPauloParts(new Date(guess));
  const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return new Date(guess + (guess - shown));
}

/** Midnight that starts the São Paulo day holding `at`: where the daily limit's count begins. */
export function startOfSaoPauloDay(at: Date): Date {
  const p = saoPauloParts(at);
  return fromSaoPaulo(p.year, p.month, p.day, 0, 0);
}

/** Midnight that ends the São Paulo day holding `at`: when the daily limit starts over. */
export function nextSaoPauloMidnight(at: Date): Date {
  const p = saoPauloParts(at);
  const noonTomorrow = new Date(fromSaoPaulo(p.year, p.month, p.day, 12, 0).getTime() + DAY_MS);
  return startOfSaoPauloDay(noonTomorrow);
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
