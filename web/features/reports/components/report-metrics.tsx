import { deliveryTone } from '#contract/metrics';
import { countLabel } from '#contract/plural';
import { StatTile } from '#web/components/metrics/stat-tile';
import { formatCount, formatPercent } from '#web/lib/format';
import type { Report } from '../api/get-report';

const RATE_TEXT = {
  green: 'text-green-700',
  yellow: 'text-amber-700',
  red: 'text-red-700',
  neutral: '',
} as const;

/** The period's figures (SPEC §3), with the delivery rate in its SPEC §9 colour. */
export function ReportMetrics({ report }: { report: Report }) {
  const m = report.metrics;
  const tiles = [
    {
      key: 'messagesSent',
      label: 'Mensagens enviadas',
      value: formatCount(m.messagesSent),
      hint: countLabel(m.failed, 'falha', 'falhas'),
    },
    {
      key: 'deliveryRate',
      label: 'Taxa de entrega',
      value: formatPercent(m.deliveryRate),
      hint: countLabel(m.delivered, 'entregue', 'entregues'),
      valueClassName: RATE_TEXT[deliveryTone({ sent: m.messagesSent, delivered: m.delivered, failed: m.failed })],
    },
    {
      key: 'openRate',
      label: 'Taxa de abertura',
      value: formatPercent(m.openRate),
      hint: countLabel(m.read, 'lida', 'lidas'),
    },
    {
      key: 'responseRate',
      label: 'Taxa de resposta',
      value: formatPercent(m.responseRate),
      hint: `${formatCount(m.answeredMessages)} de ${countLabel(m.inboundMessages, 'mensagem recebida', 'mensagens recebidas')}`,
    },
    {
      key: 'autoReplies',
      label: 'Respostas automáticas',
      value: formatCount(m.autoReplies),
      hint: 'enviadas pelo bot',
    },
    {
      key: 'activeContacts',
      label: 'Contatos ativos',
      value: formatCount(m.activeContacts),
      hint: 'hoje',
    },
  ];
  return (
    <section aria-labelledby="report-metrics-title" className="grid gap-3">
      <h3 id="report-metrics-title" className="text-base font-semibold">
        Métricas
      </h3>
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-6">
        {tiles.map((t) => (
          <li key={t.key} className="min-w-0">
            <StatTile
              label={t.label}
              value={t.value}
              hint={t.hint}
              valueClassName={t.valueClassName}
              testId={`report-${t.key}`}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
