import { type Weekday, weekdayLabels, weekdays } from '#contract/bot';
import { cn } from '#web/lib/utils';
import { toggleDay, WEEKDAY_FULL_NAMES } from '#web/lib/weekdays';

/**
 * 'Dias': a pressed-or-not button per weekday, Monday first (the chatbot's hours, a queue's hours).
 * `onChange` gets the days in week order.
 */
export function WeekdayToggles({
  days,
  onChange,
  describedBy,
}: {
  days: readonly Weekday[];
  onChange: (days: Weekday[]) => void;
  describedBy?: string;
}) {
  return (
    <fieldset className="flex min-w-0 flex-wrap gap-1.5" aria-describedby={describedBy || undefined}>
      <legend className="pb-1.5 text-sm font-medium">Dias</legend>
      {weekdays.map((day) => {
        const on = days.includes(day);
        return (
          <button
            key={day}
            type="button"
            aria-pressed={on}
            title={WEEKDAY_FULL_NAMES[day]}
            onClick={() => onChange(toggleDay(days, day))}
            className={cn(
              'h-8 min-w-12 rounded-full border px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring pointer-coarse:h-11',
              on
                ? 'border-brand-strong bg-brand-strong text-white'
                : 'border-input bg-card text-foreground hover:bg-muted',
            )}
          >
            <span aria-hidden>{weekdayLabels[day]}</span>
            <span className="sr-only">{WEEKDAY_FULL_NAMES[day]}</span>
          </button>
        );
      })}
    </fieldset>
  );
}
