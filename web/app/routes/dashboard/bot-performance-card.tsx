import { Bot } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { countLabel } from '#contract/plural';
import { TrendBadge } from '#web/components/metrics/trend-badge';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatCount, formatPercent } from '#web/lib/format';
import type { MetricsQuery } from '#web/lib/metrics/get-metrics';
import { paths } from '#web/lib/paths';

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
  } else if (query.data.autoReplies === 0 && query.data.activeChats === 0 && query.data.inboundMessages === 0) {
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
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="text-sm text-muted-foreground">Respostas Automáticas</dt>
            <dd className="flex items-center gap-2 font-semibold tabular-nums" data-testid="bot-auto-replies">
              <TrendBadge change={m.trends.autoReplies} />
              {formatCount(m.autoReplies)}
            </dd>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="text-sm text-muted-foreground">Conversas Ativas</dt>
            <dd className="font-semibold tabular-nums" data-testid="bot-active-chats">
              {formatCount(m.activeChats)}
            </dd>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="text-sm text-muted-foreground">Taxa de Resposta</dt>
            <dd className="flex items-center gap-2 font-semibold tabular-nums" data-testid="bot-response-rate">
              <TrendBadge change={m.trends.responseRate} />
              {formatPercent(m.responseRate)}
            </dd>
          </div>
        </dl>
        <div className="-mt-2 h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          <div className="h-full rounded-full bg-brand-strong" style={{ width: `${rate}%` }} />
        </div>
        <p className="text-xs text-muted-foreground">
          {`${countLabel(m.answeredMessages, 'mensagem respondida', 'mensagens respondidas')} de ${countLabel(m.inboundMessages, 'recebida', 'recebidas')}. Conversas ativas: contatos que escreveram nas últimas 24 horas.`}
        </p>
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
