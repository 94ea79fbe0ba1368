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
