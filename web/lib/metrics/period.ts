import { addDays, customPeriodForm, DEFAULT_PERIOD_DAYS, type Period, saoPauloDay } from '#contract/metrics';

/**
 * The 'Período' of the analytics tab and the Relatórios page: the last 7, 30 or 90 São Paulo days,
 * or (on the Relatórios page) a custom range of days. It lives in the URL, `?periodo=30` or
 * `?from=AAAA-MM-DD&to=AAAA-MM-DD`, so a reload or a shared link shows the same figures.
 */

export const PERIOD_PRESETS = [7, DEFAULT_PERIOD_DAYS, 90] as const;
export type PresetDays = (typeof PERIOD_PRESETS)[number];

export type PeriodChoice = { kind: 'preset'; days: PresetDays } | { kind: 'custom'; from: string; to: string };

export const DEFAULT_PERIOD_CHOICE: PeriodChoice = { kind: 'preset', days: DEFAULT_PERIOD_DAYS };

export const PERIOD_PARAM = 'periodo';
export const FROM_PARAM = 'from';
export const TO_PARAM = 'to';

/** Today in São Paulo, the day the figures are counted in. */
export function today(now: Date = new Date()): string {
  return saoPauloDay(now);
}

/** The last `days` São Paulo days up to and including `todayDay`. */
export function presetPeriod(days: number, todayDay: string): Period {
  return { from: addDays(todayDay, -(days - 1)), to: todayDay };
}

export function resolvePeriod(choice: PeriodChoice, todayDay: string): Period {
  return choice.kind === 'preset' ? presetPeriod(choice.days, todayDay) : { from: choice.from, to: choice.to };
}

function isPreset(value: number): value is PresetDays {
  return (PERIOD_PRESETS as readonly number[]).includes(value);
}

/** A preset picked in the select ('7', '30', '90'), or null for anything else. */
export function presetFromValue(value: string): PresetDays | null {
  const days = Number(value);
  return isPreset(days) ? days : null;
}

/** The query string of a period for the API: 'from=…&to=…'. */
export function periodSearch(period: Period): string {
  return new URLSearchParams({ from: period.from, to: period.to }).toString();
}

/**
 * The period a URL asks for. `?periodo=` takes one of the presets; `?from=&to=` a custom range
 * (when allowed and valid). Anything else, or nothing, is the default: the last 30 days.
 */
export function periodFromSearch(params: URLSearchParams, { allowCustom }: { allowCustom: boolean }): PeriodChoice {
  const from = params.get(FROM_PARAM);
  const to = params.get(TO_PARAM);
  if (allowCustom && from && to && customPeriodForm.safeParse({ from, to }).success) {
    return { kind: 'custom', from, to };
  }
  const days = Number(params.get(PERIOD_PARAM));
  return isPreset(days) ? { kind: 'preset', days } : DEFAULT_PERIOD_CHOICE;
}

/** `prev` with the period's parameters replaced by `choice`'s (other parameters, such as ?tab=, stay). */
export function periodToSearch(choice: PeriodChoice, prev: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(prev);
  next.delete(PERIOD_PARAM);
  next.delete(FROM_PARAM);
  next.delete(TO_PARAM);
  if (choice.kind === 'preset') next.set(PERIOD_PARAM, String(choice.days));
  else {
    next.set(FROM_PARAM, choice.from);
    next.set(TO_PARAM, choice.to);
  }
  return next;
}

/** 'Últimos 30 dias' for a preset. */
export function presetLabel(days: number): string {
  return `Últimos ${days} dias`;
}
