import { useId } from 'react';
import { cn } from '#web/lib/utils';
import { Switch } from './switch';

/** A labelled switch with its description (the label and the description are tied to it). */
export function SwitchRow({
  id,
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  className,
}: {
  id?: string;
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange: (value: boolean) => void;
  disabled?: boolean;
  className?: string;
}) {
  const ownId = useId();
  const switchId = id ?? ownId;
  return (
    <div className={cn('flex items-start justify-between gap-4', className)}>
      <div className="grid gap-1">
        <label htmlFor={switchId} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${switchId}-desc`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={switchId}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={`${switchId}-desc`}
      />
    </div>
  );
}
