/**
 * How fast a WhatsApp connection may send: pure functions of the account's settings, the clock and
 * a random source, so each rule is tested on its own (pacing.test.ts).
 */

export const SAO_PAULO = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/**
 * Daily caps of a newly connected personal number during its first week: a number that suddenly
 * sends hundreds of messages is what WhatsApp bans. Day 8 on, only the account's daily limit.
 */
export const WARMUP_DAILY_CAPS = [20, 36, 65, 117, 210, 378, 680] as const;
/** A number idle this long warms up again from the first day. */
export const WARMUP_RESTART_IDLE_MS = 72 * 3_600_000;

/** Random extra wait added to every gap: at least 1 s, or 30 % of the configured delay when larger. */
export function jitterMaxMs(delaySeconds: number): number {
  return Math.max(1000, delaySeconds * 300);
}

/** The wait before the next personal-number message: the configured delay plus random jitter. */
export function nextGapMs(delaySeconds: number, random: () => number = Math.random): number {
  return delaySeconds * 1000 + Math.floor(random() * jitterMaxMs(delaySeconds));
}

/** The mean gap, for estimates (expected finish time). */
export function meanGapMs(delaySeconds: number): number {
  return delaySeconds * 1000 + jitterMaxMs(delaySeconds) / 2;
}

/** How long "typing…" shows before a message: grows with its length, between 0.8 and 5 s. */
export function typingMs(textLength: number): number {
  return Math.min(5000, Math.max(800, 600 + textLength * 35));
}

/** Wait before retry number `attempt` (1-based) of a transient failure: 30 s doubling, at most 15 min, ±20 %. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(15 * 60_000, 30_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
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

export interface WarmupState {
  warmupStartedAt: Date | null;
  lastSentAt: Date | null;
}

/** The warm-up's cap for today, or null once the number is past its first week. */
export function warmupCap(state: WarmupState, at: Date): number | null {
  const started = effectiveWarmupStart(state, at);
  const day = Math.floor((startOfSaoPauloDay(at).getTime() - startOfSaoPauloDay(started).getTime()) / DAY_MS);
  return day < WARMUP_DAILY_CAPS.length ? WARMUP_DAILY_CAPS[Math.max(0, day)] : null;
}

/** When the current warm-up began: now for a number that never sent or sat idle for 72 h. */
export function effectiveWarmupStart(state: WarmupState, at: Date): Date {
  if (!state.warmupStartedAt || !state.lastSentAt) return at;
  if (at.getTime() - state.lastSentAt.getTime() >= WARMUP_RESTART_IDLE_MS) return at;
  return state.warmupStartedAt;
}

/** Messages still allowed today: the account's limit, lowered by the warm-up on a personal number. */
export function remainingToday(opts: {
  dailyLimit: number;
  sentToday: number;
  warmup: WarmupState | null;
  at: Date;
}): number {
  const warm = opts.warmup ? warmupCap(opts.warmup, opts.at) : null;
  const cap = warm === null ? opts.dailyLimit : Math.min(opts.dailyLimit, warm);
  return Math.max(0, cap - opts.sentToday);
}
