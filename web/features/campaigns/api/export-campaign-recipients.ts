import { useMutation } from '@tanstack/react-query';
import type { RecipientStatus } from '#contract/campaigns';
import { downloadFromApi } from '#web/lib/download';

export type RecipientsExportFormat = 'csv' | 'xlsx';

export function campaignRecipientsExportUrl(id: string, format: RecipientsExportFormat, status?: RecipientStatus | '') {
  const params = new URLSearchParams({ format });
  if (status) params.set('status', status);
  return `/api/campaigns/${encodeURIComponent(id)}/recipients/export?${params}`;
}

/** The per-recipient report as a CSV or XLSX download (with the status filter in use). */
export function exportCampaignRecipients({
  id,
  format,
  status,
}: {
  id: string;
  format: RecipientsExportFormat;
  status?: RecipientStatus | '';
}): Promise<void> {
  return downloadFromApi(campaignRecipientsExportUrl(id, format, status), `destinatarios.${format}`);
}

export function useExportCampaignRecipients() {
  return useMutation({ mutationFn: exportCampaignRecipients });
}
