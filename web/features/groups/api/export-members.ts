import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { filenameFromDisposition } from '../../../lib/content-disposition';

/**
 * Fetches the members CSV (so a failure can be shown as a toast instead of a broken download) and
 * hands it to the browser as a file.
 */
export async function exportGroupMembers(id: string): Promise<void> {
  const response = await fetch(`/api/groups/${encodeURIComponent(id)}/members`, { credentials: 'include' });
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
  const name = filenameFromDisposition(response.headers.get('content-disposition'), 'membros.csv');
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function useExportGroupMembers() {
  return useMutation({ mutationFn: exportGroupMembers });
}
