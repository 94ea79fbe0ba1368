import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '#web/lib/download';

export const BACKUP_URL = '/api/backup';

/** Downloads the account's backup (a JSON file named by the server, 'disparo-backup-AAAA-MM-DD.json'). */
export function downloadBackup(): Promise<void> {
  return downloadFromApi(BACKUP_URL, 'disparo-backup.json');
}

export function useDownloadBackup() {
  return useMutation({ mutationFn: downloadBackup });
}
