import type { ReactNode } from 'react';
import { BEST_TIME_MIN_DELIVERED, deliveryTone } from '#contract/metrics';
import { countLabel } from '#contract/plural';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { formatCount, formatDay, formatPercent } from '#web/lib/format';
import { hourRangeLabel, weekdayName } from '#web/lib/metrics/time-labels';
import type { Report } from '../api/get-report';
import { formatDecimal } from '../report-view';

const NOT_ENOUGH = `Ainda sem entregas suficientes (mínimo de ${BEST_TIME_MIN_DELIVERED})`;

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2.5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-right text-sm font-medium tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** 'Resumo do Sistema': the account as it is now. */
export function SystemSummary({ summary }: { summary: Report['summary'] }) {
  return (
    <Card data-testid="report-summary">
      <CardHeader>
        <CardTitle>Resumo do Sistema</CardTitle>
        <CardDescription>A sua conta hoje.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">
          <Row label="Campanhas" testId="summary-campaigns">
            {`${formatCount(summary.campaigns)} (${countLabel(summary.completedCampaigns, 'concluída', 'concluídas')})`}
          </Row>
          <Row label="Contatos" testId="summary-contacts">
            {`${formatCount(summary.contacts)} (${countLabel(summary.activeContacts, 'ativo', 'ativos')})`}
          </Row>
          <Row label="Grupos" testId="summary-groups">
            {`${formatCount(summary.groups)} (${countLabel(summary.activeGroups, 'ativo', 'ativos')})`}
          </Row>
          <Row label="Respostas automáticas configuradas" testId="summary-auto-reply-rules">
            {formatCount(summary.autoReplyRules)}
          </Row>
          <Row label="Chatbot" testId="summary-bot">
            <Badge tone={summary.botEnabled ? 'green' : 'neutral'}>{summary.botEnabled ? 'Ativo' : 'Inativo'}</Badge>
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

/** 'Análise Detalhada': the period's rates, averages and best times to send. */
export function DetailedAnalysis({ analysis: a }: { analysis: Report['analysis'] }) {
  return (
    <Card data-testid="report-analysis">
      <CardHeader>
        <CardTitle>Análise Detalhada</CardTitle>
        <CardDescription>O que aconteceu no período, no horário de São Paulo.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">
          <Row label="Mensagens enviadas" testId="analysis-sent">
            {formatCount(a.messagesSent)}
          </Row>
          <Row label="Entregues" testId="analysis-delivered">
            {formatCount(a.delivered)}
          </Row>
          <Row label="Lidas" testId="analysis-read">
            {formatCount(a.read)}
          </Row>
          <Row label="Falhas" testId="analysis-failed">
            {formatCount(a.failed)}
          </Row>
          <Row label="Taxa de entrega" testId="analysis-delivery-rate">
            <Badge tone={deliveryTone({ sent: a.messagesSent, delivered: a.delivered, failed: a.failed })}>
              {formatPercent(a.deliveryRate)}
            </Badge>
          </Row>
          <Row label="Taxa de abertura" testId="analysis-open-rate">
            {formatPercent(a.openRate)}
          </Row>
          <Row label="Taxa de resposta" testId="analysis-response-rate">
            {formatPercent(a.responseRate)}
          </Row>
          <Row label="Taxa de falha" testId="analysis-failure-rate">
            {formatPercent(a.failureRate)}
          </Row>
          <Row label="Média de envios por dia" testId="analysis-average">
            {formatDecimal(a.averageSentPerDay)}
          </Row>
          <Row label="Respostas do bot" testId="analysis-bot-replies">
            {formatCount(a.botReplies)}
          </Row>
          <Row label="Conversas" testId="analysis-conversations">
            {formatCount(a.conversations)}
          </Row>
          <Row label="Melhor horário para enviar" testId="analysis-best-hour">
            {a.bestHour
              ? `${hourRangeLabel(a.bestHour.hour)} (${formatPercent(a.bestHour.readRate)} de leitura)`
              : NOT_ENOUGH}
          </Row>
          <Row label="Melhor dia da semana" testId="analysis-best-weekday">
            {a.bestWeekday
              ? `${weekdayName(a.bestWeekday.weekday)} (${formatPercent(a.bestWeekday.readRate)} de leitura)`
              : NOT_ENOUGH}
          </Row>
          <Row label="Dia com mais envios" testId="analysis-busiest-day">
            {a.busiestDay
              ? `${formatDay(a.busiestDay.day)} (${countLabel(a.busiestDay.sent, 'mensagem', 'mensagens')})`
              : 'Nenhum envio no período'}
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}
