import { type FormEvent, useState } from 'react';
import type { Period } from '../../../../contract/metrics';
import { FormField } from '../../../components/form-field';
import { CUSTOM_PERIOD_VALUE, PeriodSelect } from '../../../components/metrics/period-select';
import { Button } from '../../../components/ui/button';
import {
  type CustomPeriodErrors,
  type PeriodChoice,
  presetFromValue,
  validateCustomPeriod,
} from '../../../lib/metrics/period';

/**
 * 'Período' of the Relatórios page: a preset applies at once; 'Personalizado' opens two labelled
 * date inputs, checked (both days, from ≤ to, at most the contract's MAX_PERIOD_DAYS) on 'Aplicar'.
 * Remount it (key) when the URL's period changes so the inputs follow.
 */
export function ReportPeriodPicker({
  choice,
  period,
  onChange,
}: {
  choice: PeriodChoice;
  period: Period;
  onChange: (choice: PeriodChoice) => void;
}) {
  const [customOpen, setCustomOpen] = useState(choice.kind === 'custom');
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [errors, setErrors] = useState<CustomPeriodErrors>({});

  const selectValue = customOpen ? CUSTOM_PERIOD_VALUE : choice.kind === 'preset' ? String(choice.days) : '';

  const onSelect = (value: string) => {
    const preset = presetFromValue(value);
    if (preset) {
      setCustomOpen(false);
      setErrors({});
      onChange({ kind: 'preset', days: preset });
    } else if (value === CUSTOM_PERIOD_VALUE) {
      setCustomOpen(true);
    }
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCustomPeriod(from, to);
    setErrors(found);
    if (Object.keys(found).length === 0) onChange({ kind: 'custom', from, to });
  };

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
      <PeriodSelect value={selectValue} onChange={onSelect} allowCustom />
      {customOpen ? (
        <form
          noValidate
          onSubmit={apply}
          aria-label="Período personalizado"
          className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 sm:flex sm:items-start"
        >
          <FormField
            label="Data inicial"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            error={errors.from}
            className="sm:w-44"
          />
          <FormField
            label="Data final"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={errors.to}
            className="sm:w-44"
          />
          <Button type="submit" variant="outline" className="min-[420px]:col-span-2 sm:mt-6">
            Aplicar
          </Button>
        </form>
      ) : null}
    </div>
  );
}
