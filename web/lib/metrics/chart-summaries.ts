import { formatDay, formatNumber, formatPercent } from '#contract/format';
import { bestByReadRate, type DailyFigures, type HourFigures, type WeekdayFigures } from '#contract/metrics';
import { pluralForm } from '#contract/plural';
import { hourRangeLabel, weekdayName } from './time-labels';

/**
 * The words behind each chart: the `aria-label` of its `role="img"` container says what the chart
 * shows (totals, the peak, the best time), and the table beside it holds every number.
 */

export type DailyKey =
  | 'sent'
  | 'delivered'
  | 'read'
  | 'failed'
  | 'botReplies'
  | 'conversations'
  | 'inbound'
  | 'answered';

export function totals(days: readonly DailyFigures[]): Record<DailyKey, number> {
  const sum: Record<DailyKey, number> = {
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    botReplies: 0,
    conversations: 0,
    inbound: 0,
    answered: 0,
  };
  for (const d of days) for (const key of Object.keys(sum) as DailyKey[]) sum[key] += d[key];
  return sum;
}

/** The day with the most of `key` (the first of a tie), or null when every day is 0. */
export function peakDay(days: readonly DailyFigures[], key: DailyKey): DailyFigures | null {
  let best: DailyFigures | null = null;
  for (const d of days) if (d[key] > 0 && (!best || d[key] > best[key])) best = d;
  return best;
}

/** Whether a daily series has anything but zeros in `keys`. */
export function hasAny(days: readonly DailyFigures[], keys: readonly DailyKey[]): boolean {
  return days.some((d) => keys.some((k) => d[k] > 0));
}

const n = (value: number, one: string, other: string) => `${formatNumber(value)} ${pluralForm(value, one, other)}`;

export function messagesPerDaySummary(days: readonly DailyFigures[]): string {
  const t = totals(days);
  if (t.sent === 0) return 'Mensagens por dia: nenhuma mensagem enviada no período.';
  const peak = peakDay(days, 'sent');
  const peakText = peak
    ? ` O dia com mais envios foi ${formatDay(peak.day)}, com ${n(peak.sent, 'mensagem', 'mensagens')}.`
    : '';
  return `Mensagens por dia: ${n(t.sent, 'enviada', 'enviadas')}, ${n(t.delivered, 'entregue', 'entregues')} e ${n(t.read, 'lida', 'lidas')} no período.${peakText}`;
}

export function botPerDaySummary(days: readonly DailyFigures[]): string {
  const t = totals(days);
  if (t.botReplies === 0 && t.conversations === 0) return 'Respostas do bot e conversas por dia: nenhuma no período.';
  const peak = peakDay(days, 'conversations');
  const peakText = peak
    ? ` O dia com mais conversas foi ${formatDay(peak.day)}, com ${n(peak.conversations, 'conversa', 'conversas')}.`
    : '';
  return `Respostas do bot e conversas por dia: ${n(t.botReplies, 'resposta do bot', 'respostas do bot')} e ${n(t.conversations, 'conversa', 'conversas')} no período.${peakText}`;
}

function sendTimeSummary<T extends HourFigures | WeekdayFigures>(
  subject: string,
  items: readonly T[],
  name: (item: T) => string,
  noun: string,
): string {
  const delivered = items.reduce((sum, i) => sum + i.delivered, 0);
  if (delivered === 0) return `${subject}: nenhuma mensagem entregue no período.`;
  const best = bestByReadRate(items);
  if (!best)
    return `${subject}: ${n(delivered, 'mensagem entregue', 'mensagens entregues')} no período, ainda poucas para indicar o melhor ${noun}.`;
  return `${subject}: o melhor ${noun} foi ${name(best)}, com ${formatPercent(best.readRate)} de leitura em ${n(best.delivered, 'mensagem entregue', 'mensagens entregues')}.`;
}

export function readRateByHourSummary(byHour: readonly HourFigures[]): string {
  return sendTimeSummary(
    'Taxa de leitura por hora de envio, no horário de São Paulo',
    byHour,
    (h) => hourRangeLabel(h.hour),
    'horário',
  );
}

export function readRateByWeekdaySummary(byWeekday: readonly WeekdayFigures[]): string {
  return sendTimeSummary('Taxa de leitura por dia da semana de envio', byWeekday, (w) => weekdayName(w.weekday), 'dia');
}
