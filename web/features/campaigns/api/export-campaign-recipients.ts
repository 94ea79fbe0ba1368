import { useMutation } from '@tanstack/react-query';
import type { RecipientStatus } from '../../../../contract/campaigns';
import { ApiError } from '../../../lib/api';
import { filenameFromDisposition } from '../../../lib/content-disposition';

export type RecipientsExportFormat = 'csv' | 'xlsx';

export function campaignRecipientsExportUrl(id: string, format: RecipientsExportFormat, status?: RecipientStatus | '') {
  const params = new URLSearchParams({ format });
  if (status) params.set('status', status);
  return `/api/campaigns/${encodeURIComponent(id)}/recipients/export?${params}`;
}

/**
 * Fetches the report file (so a failure shows as a toast instead of a broken download) and hands it
 * to the browser under the server's file name.
 */
export async function exportCampaignRecipients({
  id,
  format,
  status,
}: {
  id: string;
  format: RecipientsExportFormat;
  status?: RecipientStatus | '';
}): Promise<void> {
  const response = await fetch(campaignRecipientsExportUrl(id, format, status), { credentials: 'include' });
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
  const name = filenameFromDisposition(response.headers.get('content-disposition'), `destinatarios.${format}`);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function useExportCampaignRecipients() {
  return useMutation({ mutationFn: exportCampaignRecipients });
}
