import { useId } from 'react';
import { PERIOD_PRESETS, presetLabel } from '#web/lib/metrics/period';
import { cn } from '#web/lib/utils';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/select';

export const CUSTOM_PERIOD_VALUE = 'personalizado';

/** 'Período': the last 7, 30 or 90 days, and 'Personalizado' where a custom range is offered. */
export function PeriodSelect({
  value,
  onChange,
  allowCustom = false,
  className,
}: {
  /** A preset's number of days, or CUSTOM_PERIOD_VALUE. */
  value: string;
  onChange: (value: string) => void;
  allowCustom?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>Período</Label>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)} className="sm:w-52">
        {PERIOD_PRESETS.map((days) => (
          <option key={days} value={String(days)}>
            {presetLabel(days)}
          </option>
        ))}
        {allowCustom ? <option value={CUSTOM_PERIOD_VALUE}>Personalizado</option> : null}
      </NativeSelect>
    </div>
  );
}
