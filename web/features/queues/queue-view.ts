import type { z } from 'zod';
import { type Weekday, weekdayLabels, weekdays } from '#contract/bot';
import { BUSINESS_DAYS } from '#contract/constants';
import { countLabel } from '#contract/plural';
import type { Queue, queueInput } from '#contract/queues';

/*
 * What the Filas page says about a queue (its hours, numbers, people and open conversations) and
 * the dialog's values: pure, so the wording is tested without a browser.
 */

/** The dialog's values: what `queueInput` takes (it trims, orders the days and fills the defaults). */
export type QueueFormValues = z.input<typeof queueInput>;
export type QueueHoursValues = NonNullable<QueueFormValues['hours']>;

/** The hours a queue starts with when it stops being open around the clock: weekdays, 9 to 6. */
export function defaultQueueHours(): QueueHoursValues {
  return { start: '09:00', end: '18:00', days: [...BUSINESS_DAYS] };
}

/** The days the server sent, as weekdays in the week's order (anything unknown left out). */
export function weekdaysOf(days: readonly string[]): Weekday[] {
  return weekdays.filter((d) => days.includes(d));
}

/** The dialog's values for a queue (null: a new one, open around the clock, first to take it). */
export function queueFormValues(queue: Queue | null): QueueFormValues {
  if (!queue) {
    return { name: '', connectionIds: [], memberIds: [], hours: null, outOfHoursMessage: '', assignment: 'manual' };
  }
  return {
    name: queue.name,
    connectionIds: [...queue.connectionIds],
    memberIds: [...queue.memberIds],
    hours: queue.hours ? { start: queue.hours.start, end: queue.hours.end, days: weekdaysOf(queue.hours.days) } : null,
    outOfHoursMessage: queue.outOfHoursMessage,
    assignment: queue.assignment,
  };
}

/** `list` with `id` in it (`on`) or out of it, once, the order kept. */
export function toggleId(list: readonly string[], id: string, on: boolean): string[] {
  const rest = list.filter((x) => x !== id);
  return on ? [...rest, id] : rest;
}

/** `day` switched on or off, the week's order kept (the hours' day buttons use it). */
export { toggleDay as toggleWeekday } from '#web/lib/weekdays';

/**
 * The days in short: 'Todos os dias', 'Seg a Sex', 'Seg a Sex, Dom', 'Seg, Qua, Sex'. Three days
 * in a row or more read as a range.
 */
export function daysText(days: readonly string[]): string {
  const on = weekdaysOf(days);
  if (on.length === 0) return 'Nenhum dia';
  if (on.length === weekdays.length) return 'Todos os dias';
  const runs: Weekday[][] = [];
  for (const day of on) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && weekdays.indexOf(day) === weekdays.indexOf(last) + 1) run.push(day);
    else runs.push([day]);
  }
  return runs
    .flatMap((run) =>
      run.length >= 3
        ? [`${weekdayLabels[run[0]]} a ${weekdayLabels[run[run.length - 1]]}`]
        : run.map((d) => weekdayLabels[d]),
    )
    .join(', ');
}

/** A queue's hours in short: '24 horas', or 'Seg a Sex · 09:00 às 18:00'. */
export function hoursText(hours: Queue['hours'] | QueueFormValues['hours'] | undefined): string {
  if (!hours) return '24 horas';
  return `${daysText(hours.days)} · ${hours.start} às ${hours.end}`;
}

/**
 * The names of `ids` the page knows ('Vendas, Suporte'); '+1' for those it does not (a number
 * removed, a person deactivated). Without the names at all (an agent does not read the numbers, or
 * they are loading) the count: '2 números'. `none` when there are no ids.
 */
export function namesText(
  ids: readonly string[],
  names: ReadonlyMap<string, string> | undefined,
  { one, other, none }: { one: string; other: string; none: string },
): string {
  if (ids.length === 0) return none;
  const known = names ? ids.flatMap((id) => names.get(id) ?? []) : [];
  if (known.length === 0) return countLabel(ids.length, one, other);
  const rest = ids.length - known.length;
  return rest > 0 ? `${known.join(', ')} +${rest}` : known.join(', ');
}

/** 'Nenhuma conversa aberta', '1 conversa aberta', '12 conversas abertas'. */
export function openConversationsText(n: number): string {
  return n === 0 ? 'Nenhuma conversa aberta' : countLabel(n, 'conversa aberta', 'conversas abertas');
}
