import { type ComponentProps, useId } from 'react';
import { FieldError } from './field-error';
import { Input } from './ui/input';
import { Label } from './ui/label';

/** A labelled input with its validation message tied to it (aria-describedby). */
export function FormField({
  label,
  error,
  hint,
  id: idProp,
  ...inputProps
}: ComponentProps<'input'> & { label: string; error?: string; hint?: string }) {
  const autoId = useId();
  const id = idProp ?? autoId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint && !error ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
