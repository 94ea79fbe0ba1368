import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RestoreResult } from '#contract/backup';
import { ApiError } from '#web/lib/api';

/** Sends a backup file as multipart (field `file`); the server merges it into the account. */
export async function restoreBackup(file: File): Promise<RestoreResult> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch('/api/backup/restore', {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json' },
    body: form,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, response.statusText, text);
  return JSON.parse(text) as RestoreResult;
}

export function useRestoreBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreBackup,
    // A restore may touch every list and figure of the account.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
