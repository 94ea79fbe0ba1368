import { useId } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { Label } from './ui/label';
import { Switch } from './ui/switch';

/**
 * A form's yes/no field as a labelled switch in a bordered box ('Contato ativo'), with an optional
 * line under the label; `fallback` is what it shows while the field has no value yet.
 */
export function BoxedSwitch<T extends FieldValues, TOutput>({
  control,
  name,
  label,
  hint,
  fallback = false,
}: {
  control: Control<T, unknown, TOutput>;
  name: Path<T>;
  label: string;
  hint?: string;
  fallback?: boolean;
}) {
  const id = useId();
  const labelEl = <Label htmlFor={id}>{label}</Label>;
  return (
    <div className="flex items-center justify-between gap-4 rounded-md border p-3">
      {hint ? (
        <div className="grid gap-1">
          {labelEl}
          <p className="text-xs text-muted-foreground">{hint}</p>
        </div>
      ) : (
        labelEl
      )}
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Switch id={id} checked={(field.value as boolean | undefined) ?? fallback} onCheckedChange={field.onChange} />
        )}
      />
    </div>
  );
}
