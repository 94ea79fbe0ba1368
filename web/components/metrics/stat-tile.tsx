import type { ReactNode } from 'react';
import { cn } from '#web/lib/utils';
import { Card } from '../ui/card';
import { Skeleton } from '../ui/skeleton';

/** One figure with its label (and an optional line under it); a skeleton while `value` is undefined. */
export function StatTile({
  label,
  value,
  hint,
  valueClassName,
  testId,
}: {
  label: string;
  value: ReactNode | undefined;
  hint?: ReactNode;
  valueClassName?: string;
  testId?: string;
}) {
  return (
    <Card className="grid h-full content-start gap-1 p-4 sm:p-5" data-testid={testId}>
      <span className="text-sm text-muted-foreground">{label}</span>
      {value === undefined ? (
        <Skeleton className="h-8 w-20" />
      ) : (
        <span
          className={cn('text-2xl font-semibold tracking-tight tabular-nums', valueClassName)}
          data-testid="stat-value"
        >
          {value}
        </span>
      )}
      {hint ? <span className="text-xs text-muted-foreground">{hint}</span> : null}
    </Card>
  );
}
