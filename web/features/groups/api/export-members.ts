import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '#web/lib/download';

/** The group's members as a CSV download. */
export function exportGroupMembers(id: string): Promise<void> {
  return downloadFromApi(`/api/groups/${encodeURIComponent(id)}/members`, 'membros.csv');
}

export function useExportGroupMembers() {
  return useMutation({ mutationFn: exportGroupMembers });
}
