import { formatDay } from '#contract/format';
import type { Period } from '#contract/metrics';

/** Weekday names, Sunday first (the API's weekday 0 = Sunday). */
export const WEEKDAY_NAMES = [
  'domingo',
  'segunda-feira',
  'terça-feira',
  'quarta-feira',
  'quinta-feira',
  'sexta-feira',
  'sábado',
] as const;
export const WEEKDAY_SHORT = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb'] as const;

export function weekdayName(weekday: number): string {
  return WEEKDAY_NAMES[weekday] ?? String(weekday);
}

export function weekdayShort(weekday: number): string {
  return WEEKDAY_SHORT[weekday] ?? String(weekday);
}

/** 14 → '14h'. */
export function hourLabel(hour: number): string {
  return `${hour}h`;
}

/** 14 → '14h às 15h'; 23 → '23h às 0h'. */
export function hourRangeLabel(hour: number): string {
  return `${hour}h às ${(hour + 1) % 24}h`;
}

/** '2026-10-05' → '05/10' (the axis of a daily chart). */
export function shortDay(day: string): string {
  return formatDay(day).slice(0, 5);
}

/** '01/10/2026 a 30/10/2026' (one day: '30/10/2026'). */
export function periodRangeLabel(period: Period): string {
  return period.from === period.to ? formatDay(period.from) : `${formatDay(period.from)} a ${formatDay(period.to)}`;
}
