import type { LucideIcon } from 'lucide-react';
import { FileDown } from 'lucide-react';
import type { Period } from '#contract/metrics';
import { Button, type ButtonProps } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { toastError } from '#web/lib/toasts';
import { useDownloadReportPdf } from '../api/download-report-pdf';
import { reportsMsg } from '../report-view';

/**
 * Downloads the report of `period` as a PDF ('Exportar PDF' on Relatórios, 'Gerar Relatório' on the
 * dashboard); a failure shows as a toast instead of a broken download.
 */
export function ReportPdfButton({
  period,
  label,
  icon: Icon = FileDown,
  iconClassName,
  ...buttonProps
}: Omit<ButtonProps, 'onClick' | 'children'> & {
  period: Period;
  label: string;
  icon?: LucideIcon;
  iconClassName?: string;
}) {
  const download = useDownloadReportPdf();
  const busy = download.isPending;
  return (
    <Button
      {...buttonProps}
      disabled={busy || buttonProps.disabled}
      aria-busy={busy || undefined}
      onClick={() => download.mutate(period, { onError: (error) => toastError(error, reportsMsg.pdfError) })}
    >
      {busy ? <Spinner className={iconClassName} /> : <Icon aria-hidden className={iconClassName} />}
      {busy ? reportsMsg.pdfBusy : label}
    </Button>
  );
}
