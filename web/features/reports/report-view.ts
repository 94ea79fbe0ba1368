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

/** Whether the period has anything to report beyond the account's current counts. */
export function reportHasActivity(report: Report): boolean {
  const a = report.analysis;
  return (
    a.messagesSent > 0 || a.failed > 0 || a.botReplies > 0 || a.conversations > 0 || report.recentCampaigns.length > 0
  );
}
