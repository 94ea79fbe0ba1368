import { Eye, type LucideIcon, MessageSquare, TrendingUp, UserRound, UsersRound } from 'lucide-react';
import { DASHBOARD_TRENDS } from '../../../../contract/constants';
import { ErrorState } from '../../../components/states';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCount, formatPercent } from '../../../lib/format';
import type { Metrics } from '../../metrics/api/get-metrics';

interface MetricDef {
  key: keyof Metrics;
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

type MetricsQuery = {
  data: Metrics | null | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

export function MetricCards({ query }: { query: MetricsQuery }) {
  if (query.isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
        {METRICS.map((m) => (
          <Card key={m.key} className="grid gap-3 p-5">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-8 w-20" />
            <Skeleton className="h-5 w-24" />
          </Card>
        ))}
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
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Métricas">
      {METRICS.map((m, i) => (
        <li key={m.key}>
          <Card className="flex h-full flex-col gap-3 p-5">
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium text-muted-foreground">{m.label}</p>
              <span className="flex size-9 items-center justify-center rounded-md bg-brand-soft text-brand-strong">
                <m.icon aria-hidden className="size-4" />
              </span>
            </div>
            <p className="text-3xl font-semibold tracking-tight tabular-nums">{m.format(metrics[m.key])}</p>
            <p className="flex items-center gap-2 text-xs text-muted-foreground">
              <Badge tone="green">
                <TrendingUp aria-hidden />
                {DASHBOARD_TRENDS[i]}
              </Badge>
              vs. mês anterior
            </p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
