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

type Line = { label: string; testId: string; value: ReactNode };

/** One of the report's cards: a title, what it covers and its figures as label / value rows. */
function SummaryCard({
  testId,
  title,
  description,
  lines,
}: {
  testId: string;
  title: string;
  description: string;
  lines: Line[];
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">
          {lines.map((line) => (
            <div key={line.testId} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2.5">
              <dt className="text-sm text-muted-foreground">{line.label}</dt>
              <dd className="text-right text-sm font-medium tabular-nums" data-testid={line.testId}>
                {line.value}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** A best time to send, with its read rate, or why there is none yet. */
function bestTime<T extends { readRate: number }>(best: T | null, name: (best: T) => string) {
  return best ? `${name(best)} (${formatPercent(best.readRate)} de leitura)` : NOT_ENOUGH;
}

/** 'Resumo do Sistema': the account as it is now. */
export function SystemSummary({ summary: s }: { summary: Report['summary'] }) {
  const withPart = (total: number, part: string) => `${formatCount(total)} (${part})`;
  const lines: Line[] = [
    {
      label: 'Campanhas',
      testId: 'summary-campaigns',
      value: withPart(s.campaigns, countLabel(s.completedCampaigns, 'concluída', 'concluídas')),
    },
    {
      label: 'Contatos',
      testId: 'summary-contacts',
      value: withPart(s.contacts, countLabel(s.activeContacts, 'ativo', 'ativos')),
    },
    {
      label: 'Grupos',
      testId: 'summary-groups',
      value: withPart(s.groups, countLabel(s.activeGroups, 'ativo', 'ativos')),
    },
    {
      label: 'Respostas automáticas configuradas',
      testId: 'summary-auto-reply-rules',
      value: formatCount(s.autoReplyRules),
    },
    {
      label: 'Chatbot',
      testId: 'summary-bot',
      value: <Badge tone={s.botEnabled ? 'green' : 'neutral'}>{s.botEnabled ? 'Ativo' : 'Inativo'}</Badge>,
    },
  ];
  return (
    <SummaryCard testId="report-summary" title="Resumo do Sistema" description="A sua conta hoje." lines={lines} />
  );
}

/** 'Análise Detalhada': the period's rates, averages and best times to send. */
export function DetailedAnalysis({ analysis: a }: { analysis: Report['analysis'] }) {
  const tone = deliveryTone({ sent: a.messagesSent, delivered: a.delivered, failed: a.failed });
  const counts: [label: string, id: string, value: number][] = [
    ['Mensagens enviadas', 'sent', a.messagesSent],
    ['Entregues', 'delivered', a.delivered],
    ['Lidas', 'read', a.read],
    ['Falhas', 'failed', a.failed],
  ];
  const rates: [label: string, id: string, value: number][] = [
    ['Taxa de abertura', 'open-rate', a.openRate],
    ['Taxa de resposta', 'response-rate', a.responseRate],
    ['Taxa de falha', 'failure-rate', a.failureRate],
  ];
  const line = (label: string, id: string, value: ReactNode): Line => ({ label, testId: `analysis-${id}`, value });
  const lines: Line[] = [
    ...counts.map(([label, id, value]) => line(label, id, formatCount(value))),
    line('Taxa de entrega', 'delivery-rate', <Badge tone={tone}>{formatPercent(a.deliveryRate)}</Badge>),
    ...rates.map(([label, id, value]) => line(label, id, formatPercent(value))),
    line('Média de envios por dia', 'average', formatDecimal(a.averageSentPerDay)),
    line('Respostas do bot', 'bot-replies', formatCount(a.botReplies)),
    line('Conversas', 'conversations', formatCount(a.conversations)),
    line(
      'Melhor horário para enviar',
      'best-hour',
      bestTime(a.bestHour, (b) => hourRangeLabel(b.hour)),
    ),
    line(
      'Melhor dia da semana',
      'best-weekday',
      bestTime(a.bestWeekday, (b) => weekdayName(b.weekday)),
    ),
    line(
      'Dia com mais envios',
      'busiest-day',
      a.busiestDay
        ? `${formatDay(a.busiestDay.day)} (${countLabel(a.busiestDay.sent, 'mensagem', 'mensagens')})`
        : 'Nenhum envio no período',
    ),
  ];
  return (
    <SummaryCard
      testId="report-analysis"
      title="Análise Detalhada"
      description="O que aconteceu no período, no horário de São Paulo."
      lines={lines}
    />
  );
}
