import { Database } from 'lucide-react';
import { backupMsg } from '#contract/backup';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { cn } from '#web/lib/utils';
import { useDownloadBackup } from '../api/download-backup';

/** 'Backup de Dados': downloads the account's data as one JSON file; a failure shows as a toast. */
export function BackupDownloadButton({
  className,
  label = backupMsg.downloadLabel,
}: {
  className?: string;
  label?: string;
}) {
  const download = useDownloadBackup();
  const busy = download.isPending;
  return (
    <Button
      variant="outline"
      className={cn('w-full justify-start', className)}
      disabled={busy}
      aria-busy={busy}
      onClick={() =>
        download.mutate(undefined, {
          onSuccess: () => toastSuccess(backupMsg.downloaded),
          onError: (error) => toastError(error, backupMsg.downloadError),
        })
      }
    >
      {busy ? <Spinner className="text-brand-strong" /> : <Database aria-hidden className="text-brand-strong" />}
      {busy ? backupMsg.downloading : label}
    </Button>
  );
}
