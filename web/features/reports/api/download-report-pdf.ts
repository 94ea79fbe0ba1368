import { useMutation } from '@tanstack/react-query';
import type { Period } from '#contract/metrics';
import { downloadFromApi } from '#web/lib/download';
import { periodSearch } from '#web/lib/metrics/period';

/** GET /api/reports/pdf?from&to: the same report as a PDF file, named by the server. */
export function reportPdfUrl(period: Period): string {
  return `/api/reports/pdf?${periodSearch(period)}`;
}

export function downloadReportPdf(period: Period): Promise<void> {
  return downloadFromApi(reportPdfUrl(period), `relatorio-${period.from}-a-${period.to}.pdf`);
}

export function useDownloadReportPdf() {
  return useMutation({ mutationFn: downloadReportPdf });
}
