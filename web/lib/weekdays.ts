import { type Weekday, weekdays } from '#contract/bot';

/** A weekday's full name, as a day button's title and screen readers say it. */
export const WEEKDAY_FULL_NAMES: Record<Weekday, string> = {
  monday: 'Segunda-feira',
  tuesday: 'Terça-feira',
  wednesday: 'Quarta-feira',
  thursday: 'Quinta-feira',
  friday: 'Sexta-feira',
  saturday: 'Sábado',
  sunday: 'Domingo',
};

/** Days in week order, with `day` switched on or off. */
export function toggleDay(days: readonly Weekday[], day: Weekday): Weekday[] {
  const next = days.includes(day) ? days.filter((d) => d !== day) : [...days, day];
  return weekdays.filter((d) => next.includes(d));
}
