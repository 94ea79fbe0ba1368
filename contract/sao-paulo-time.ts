/**
 * The São Paulo clock: every day, hour and wall-clock time the product shows or counts by (the
 * dashboard's days, the daily limit's midnight, business hours, exported times). One home for the
 * server's engines and modules and the browser; pure functions of their arguments, depending on
 * nothing but the time-zone database.
 */

export const SAO_PAULO = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

export interface SaoPauloParts {
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
export function saoPauloParts(at: Date): SaoPauloParts & { second: number } {
  const p: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(at)) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
    weekday: p.weekday.toLowerCase() as SaoPauloParts['weekday'],
  };
}

/** The UTC instant of a São Paulo wall-clock time (whatever offset the zone has that day). */
export function fromSaoPaulo(year: number, month: number, day: number, hour: number, minute: number): Date {
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

const spDayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SAO_PAULO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The São Paulo calendar day of an instant, 'YYYY-MM-DD'. */
export function saoPauloDay(at: Date): string {
  return spDayFormat.format(at);
}

const spHourFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SAO_PAULO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** The São Paulo wall-clock hour of an instant, 'YYYY-MM-DDTHH:00:00' (no offset: a local time). */
export function saoPauloHour(at: Date): string {
  const p: Record<string, string> = {};
  for (const part of spHourFormat.formatToParts(at)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:00:00`;
}

const spTimestampFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SAO_PAULO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

/**
 * An instant as São Paulo wall-clock time with its offset, '2026-11-25 16:22:14 -03:00': how every
 * exported table (CSV and XLSX) writes a time, so a file shows the hour the screen showed.
 * The offset comes from the time-zone database (it was -02:00 in the summers before 2019), never a
 * fixed -03:00. Written with a space rather than ISO's 'T': Brazilian Excel turns neither form
 * into a date once an offset is attached, so the cell stays text either way (XLSX cells are text
 * anyway) — and as text the spaced form reads like a date and a time, still sorts in time order,
 * and PostgreSQL, JavaScript and Python read it back as the same instant.
 */
export function saoPauloTimestamp(at: Date): string {
  const p: Record<string, string> = {};
  for (const part of spTimestampFormat.formatToParts(at)) p[part.type] = part.value;
  // 'GMT-03:00'; a zero offset is written plain 'GMT'.
  const offset = p.timeZoneName.replace('GMT', '') || '+00:00';
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${offset}`;
}

const spMinuteFormat = new Intl.DateTimeFormat('pt-BR', {
  timeZone: SAO_PAULO,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as São Paulo wall-clock time to the minute, the Brazilian way: 'dd/mm/aaaa hh:mm'. */
export function saoPauloMinute(at: Date): string {
  return spMinuteFormat.format(at).replace(',', '');
}
