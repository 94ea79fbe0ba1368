import type { User } from '#contract/auth';
import { deliveryTone } from '#contract/metrics';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatCount, formatNumber, formatPercent } from '#web/lib/format';
import { useTodayMetrics } from '#web/lib/metrics/get-today-metrics';
import { useFiguresFollowCampaigns } from '#web/lib/metrics/use-figures-freshness';
import { cn } from '#web/lib/utils';
import { Skeleton } from '../ui/skeleton';

const RATE_TEXT = { green: 'text-green-700', yellow: 'text-amber-700', red: 'text-red-700', neutral: '' } as const;

/**
 * The header's figures of the day (São Paulo day): messages sent today and today's delivery rate
 * (delivered ÷ sent or failed, contract/metrics.ts), polled at the campaign cards' pace while a
 * campaign is live. Being in every screen's header, it also keeps every figure on screen in step
 * with the campaign cards (`useFiguresFollowCampaigns`). Accounts that may not read their workspace
 * (pending, deactivated) have none to show.
 */
export function TodayFigures({ user, className }: { user: User; className?: string }) {
  const readable = canReadWorkspace(user);
  const today = useTodayMetrics(readable);
  useFiguresFollowCampaigns(readable);
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
        ? `${formatNumber(data.deliveredToday)} entregues de ${formatNumber(data.sentToday + data.failedToday)} mensagens enviadas ou com falha hoje`
        : undefined,
      // Nothing sent nor failed today: a 0 % rate would read as a failure, so it stays neutral.
      tone: data
        ? RATE_TEXT[deliveryTone({ sent: data.sentToday, delivered: data.deliveredToday, failed: data.failedToday })]
        : '',
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
