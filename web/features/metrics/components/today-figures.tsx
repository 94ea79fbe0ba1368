import type { User } from '../../../../contract/auth';
import { deliveryRateTone } from '../../../../contract/format';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCount, formatNumber, formatPercent } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { canReadWorkspace } from '../../auth/permissions';
import { useTodayMetrics } from '../api/get-today-metrics';

const RATE_TEXT = { green: 'text-green-700', yellow: 'text-amber-700', red: 'text-red-700' } as const;

/**
 * The header's figures of the day (São Paulo day): messages sent today and today's delivery rate,
 * polled. Accounts that may not read their workspace (pending, deactivated) have none to show.
 */
export function TodayFigures({ user, className }: { user: User; className?: string }) {
  const readable = canReadWorkspace(user);
  const today = useTodayMetrics(readable);
  if (!readable || today.isError) return null;

  const data = today.data;
  const figures = [
    {
      label: 'Enviadas hoje',
      testId: 'header-sent-today',
      value: data ? formatCount(data.sentToday) : null,
      title: data ? `${formatNumber(data.sentToday)} mensagens enviadas hoje` : undefined,
      tone: '',
    },
    {
      label: 'Taxa de entrega',
      testId: 'header-delivery-rate-today',
      value: data ? formatPercent(data.deliveryRateToday) : null,
      title: data
        ? `${formatNumber(data.deliveredToday)} de ${formatNumber(data.sentToday)} entregues hoje`
        : undefined,
      // No message sent today: a 0 % rate would read as a failure, so it stays neutral.
      tone: data && data.sentToday > 0 ? RATE_TEXT[deliveryRateTone(data.deliveryRateToday)] : '',
    },
  ];

  return (
    <dl className={cn('items-center gap-5', className)} aria-busy={data ? undefined : true}>
      {figures.map((f) => (
        <div key={f.label} className="text-right">
          <dt className="text-xs text-muted-foreground">{f.label}</dt>
          <dd className={cn('text-sm font-semibold tabular-nums', f.tone)} data-testid={f.testId} title={f.title}>
            {f.value ?? <Skeleton className="ml-auto h-5 w-12" />}
          </dd>
        </div>
      ))}
    </dl>
  );
}
