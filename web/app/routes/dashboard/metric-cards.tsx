import { Eye, type LucideIcon, MessageSquare, UserRound, UsersRound } from 'lucide-react';
import { GROWTH_DAYS, type MetricsTrends, TREND_DAYS } from '#contract/metrics';
import { TrendBadge } from '#web/components/metrics/trend-badge';
import { ErrorState } from '#web/components/states';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatCount, formatPercent } from '#web/lib/format';
import type { MetricsQuery } from '#web/lib/metrics/get-metrics';

type MetricKey = 'messagesSent' | 'activeContacts' | 'activeGroups' | 'openRate';

interface MetricDef {
  key: MetricKey & keyof MetricsTrends;
  label: string;
  icon: LucideIcon;
  format: (n: number) => string;
}

const METRICS: readonly MetricDef[] = [
  { key: 'messagesSent', label: 'Mensagens Enviadas', icon: MessageSquare, format: formatCount },
  { key: 'activeContacts', label: 'Contatos Ativos', icon: UserRound, format: formatCount },
  { key: 'activeGroups', label: 'Grupos Ativos', icon: UsersRound, format: formatCount },
  { key: 'openRate', label: 'Taxa de Abertura', icon: Eye, format: formatPercent },
];

export function MetricCards({ query }: { query: MetricsQuery }) {
  if (query.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {METRICS.map((m) => (
            <Card key={m.key} className="grid gap-3 p-5">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-8 w-20" />
              <Skeleton className="h-5 w-24" />
            </Card>
          ))}
        </div>
        <Skeleton className="h-5 w-72 max-w-full" />
      </div>
    );
  }

  if (query.isError || !query.data) {
    return (
      <Card>
        <ErrorState
          title="Não foi possível carregar as métricas."
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </Card>
    );
  }

  const metrics = query.data;
  return (
    <div className="grid gap-4">
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Métricas">
        {METRICS.map((m) => {
          const change = metrics.trends[m.key];
          return (
            <li key={m.key} data-testid={`metric-${m.key}`}>
              <Card className="flex h-full flex-col gap-3 p-5">
                <div className="flex items-center justify-between gap-2">
                  <p className="text-sm font-medium text-muted-foreground">{m.label}</p>
                  <span className="flex size-9 items-center justify-center rounded-md bg-brand-soft text-brand-strong">
                    <m.icon aria-hidden className="size-4" />
                  </span>
                </div>
                <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid="metric-value">
                  {m.format(metrics[m.key])}
                </p>
                <p className="flex min-h-5 flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  {change === null ? (
                    'Sem dados anteriores para comparar'
                  ) : (
                    <>
                      <TrendBadge change={change} testId="metric-trend" />
                      {`nos últimos ${TREND_DAYS} dias vs. os ${TREND_DAYS} anteriores`}
                    </>
                  )}
                </p>
              </Card>
            </li>
          );
        })}
      </ul>
      <MonthlyGrowth growth={metrics.monthlyGrowth} />
    </div>
  );
}

/** Messages sent in the last 30 days against the 30 before (SPEC's 'campaigns × 1.2' replaced by the real figure). */
function MonthlyGrowth({ growth }: { growth: number | null }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground" data-testid="monthly-growth">
      <span className="font-medium text-foreground">Crescimento mensal:</span>
      {growth === null ? (
        `ainda não há envios nos ${GROWTH_DAYS} dias anteriores para comparar.`
      ) : (
        <>
          <TrendBadge change={growth} testId="monthly-growth-value" />
          {`em mensagens enviadas nos últimos ${GROWTH_DAYS} dias, em relação aos ${GROWTH_DAYS} anteriores.`}
        </>
      )}
    </p>
  );
}
