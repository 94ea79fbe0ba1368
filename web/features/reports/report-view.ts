import { deliveryRateTone } from '../../../contract/format';
import type { Report } from '../../../contract/metrics';

export const reportsMsg = {
  loadError: 'Não foi possível carregar o relatório.',
  pdfError: 'Não foi possível gerar o PDF do relatório. Tente novamente.',
  pdfBusy: 'Gerando PDF...',
  exportLabel: 'Exportar PDF',
} as const;

const decimal1 = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** 12.5 → '12,5' (the average of messages per day). */
export function formatDecimal(value: number): string {
  return decimal1.format(value);
}

/**
 * The badge tone of a delivery rate (SPEC §9: 90 % or more green, 70 % or more yellow, else red);
 * neutral when nothing was sent, where a 0 % would read as a failure.
 */
export function deliveryBadgeTone(rate: number, sent: number): 'green' | 'yellow' | 'red' | 'neutral' {
  return sent > 0 ? deliveryRateTone(rate) : 'neutral';
}

/** Whether the period has anything to report beyond the account's current counts. */
export function reportHasActivity(report: Report): boolean {
  const a = report.analysis;
  return (
    a.messagesSent > 0 || a.failed > 0 || a.botReplies > 0 || a.conversations > 0 || report.recentCampaigns.length > 0
  );
}
