import { Bot } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../app/paths';
import { EmptyState, ErrorState } from '../../../components/states';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCount, formatPercent } from '../../../lib/format';
import { PermissionGatedButton } from '../../auth/components/permission-gated-button';
import type { Metrics } from '../../metrics/api/get-metrics';

type MetricsQuery = {
  data: Metrics | null | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

export function BotPerformanceCard({ query }: { query: MetricsQuery }) {
  const navigate = useNavigate();
  let body: ReactNode;

  if (query.isPending) {
    body = (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  } else if (query.isError || !query.data) {
    body = (
      <ErrorState
        title="Não foi possível carregar o desempenho do bot."
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (query.data.autoReplies === 0 && query.data.activeChats === 0) {
    body = (
      <EmptyState
        icon={Bot}
        title="O bot ainda não respondeu mensagens"
        description="Configure respostas automáticas para atender seus clientes a qualquer hora."
        action={
          <PermissionGatedButton kind="bot" size="sm" onClick={() => navigate(paths.chatbot)}>
            Configurar Bot
          </PermissionGatedButton>
        }
      />
    );
  } else {
    const m = query.data;
    const rate = Math.min(100, Math.max(0, m.responseRate));
    body = (
      <div className="grid gap-4">
        <dl className="grid gap-4">
          <div className="flex items-center justify-between gap-2">
            <dt className="text-sm text-muted-foreground">Respostas Automáticas</dt>
            <dd className="font-semibold tabular-nums">{formatCount(m.autoReplies)}</dd>
          </div>
          <div className="flex items-center justify-between gap-2">
            <dt className="text-sm text-muted-foreground">Conversas Ativas</dt>
            <dd className="font-semibold tabular-nums">{formatCount(m.activeChats)}</dd>
          </div>
          <div className="flex items-center justify-between gap-2">
            <dt className="text-sm text-muted-foreground">Taxa de Resposta</dt>
            <dd className="font-semibold tabular-nums">{formatPercent(m.responseRate)}</dd>
          </div>
        </dl>
        <div className="-mt-2 h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          <div className="h-full rounded-full bg-brand-strong" style={{ width: `${rate}%` }} />
        </div>
      </div>
    );
  }

  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle>Desempenho do Bot</CardTitle>
        <CardDescription>Atendimento automático do chatbot.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
