import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { customPeriodForm, type Period } from '#contract/metrics';
import { FormField } from '#web/components/form-field';
import { CUSTOM_PERIOD_VALUE, PeriodSelect } from '#web/components/metrics/period-select';
import { Button } from '#web/components/ui/button';
import { type PeriodChoice, presetFromValue } from '#web/lib/metrics/period';

const dateFields = [
  { name: 'from', label: 'Data inicial' },
  { name: 'to', label: 'Data final' },
] as const;

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
  const form = useForm({
    resolver: zodResolver(customPeriodForm),
    defaultValues: { from: period.from, to: period.to },
    // Checked on 'Aplicar' only, as before: typing a day does not clear or raise an error.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;

  const selectValue = customOpen ? CUSTOM_PERIOD_VALUE : choice.kind === 'preset' ? String(choice.days) : '';

  const onSelect = (value: string) => {
    const preset = presetFromValue(value);
    if (preset) {
      setCustomOpen(false);
      form.clearErrors();
      onChange({ kind: 'preset', days: preset });
    } else if (value === CUSTOM_PERIOD_VALUE) {
      setCustomOpen(true);
    }
  };

  const apply = form.handleSubmit(({ from, to }) => onChange({ kind: 'custom', from, to }));

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
          {dateFields.map(({ name, label }) => (
            <FormField
              key={name}
              label={label}
              type="date"
              error={errors[name]?.message}
              className="sm:w-44"
              {...form.register(name)}
            />
          ))}
          <Button type="submit" variant="outline" className="min-[420px]:col-span-2 sm:mt-6">
            Aplicar
          </Button>
        </form>
      ) : null}
    </div>
  );
}
