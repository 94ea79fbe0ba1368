import { TriangleAlert, Upload } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import {
  BACKUP_MAX_FILE_MB,
  BACKUP_MAX_UPLOAD_MB,
  backupMsg,
  type RestoreResult,
  type RestoreSection,
  restoreSections,
} from '#contract/backup';
import { msg } from '#contract/messages';
import { LockedState } from '#web/components/locked-state';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { formatNumber } from '#web/lib/format';
import { toastSuccess } from '#web/lib/toasts';
import { useRestoreBackup } from '../api/restore-backup';
import { BackupDownloadButton } from './backup-download-button';

const SECTION_LABELS: Record<RestoreSection, string> = {
  contacts: 'Contatos',
  groups: 'Grupos',
  savedMessages: 'Mensagens salvas',
  campaigns: 'Campanhas',
  autoReplies: 'Respostas automáticas',
  botConfig: 'Configuração do chatbot',
  settings: 'Configurações da conta',
  queues: 'Filas',
  quickReplies: 'Respostas rápidas',
};

const isJsonFile = (file: File) => /\.json$/i.test(file.name) || file.type === 'application/json';

const errorToast = (description: string) =>
  toast({ title: backupMsg.restoreErrorTitle, description, variant: 'destructive' });

/**
 * What the restore did, per kind of data: added, updated, unchanged (and left out by a limit), then
 * what it could not bring back (an image of a campaign or a saved message), one line each.
 */
function RestoreOutcome({ result }: { result: RestoreResult }) {
  const warnings = result.warnings ?? [];
  const warningsId = useId();
  return (
    <section aria-label="Resultado da restauração" className="grid gap-3 rounded-md border p-4 text-sm">
      <p className="font-medium">{result.message}</p>
      {warnings.length ? (
        <section
          aria-labelledby={warningsId}
          className="grid gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900"
        >
          <p id={warningsId} className="flex items-center gap-2 font-medium">
            <TriangleAlert aria-hidden className="size-4 shrink-0" />
            Não restaurado
          </p>
          <ul className="grid list-disc gap-1 pl-5">
            {warnings.map((warning, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once shown; two lines may read the same.
              <li key={i} className="break-words">
                {warning}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ul className="grid gap-2">
        {restoreSections.map((section) => {
          const c = result[section];
          const parts = [
            `Adicionados: ${formatNumber(c.added)}`,
            `Atualizados: ${formatNumber(c.updated)}`,
            `Sem alteração: ${formatNumber(c.unchanged)}`,
            ...(c.skipped ? [`Acima do limite: ${formatNumber(c.skipped)}`] : []),
          ];
          return (
            <li key={section} className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b pb-2 last:border-0">
              <span className="font-medium">{SECTION_LABELS[section]}</span>
              <span className="text-muted-foreground tabular-nums">{parts.join(' · ')}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * Settings › 'Restaurar backup': a backup file from the dashboard's 'Backup de Dados' is merged
 * into the account (nothing deleted or duplicated); the outcome shows as a toast and per section.
 */
export function RestoreBackupCard({ readOnly, locked }: { readOnly: boolean; locked: boolean }) {
  const restore = useRestoreBackup();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<RestoreResult | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const busy = restore.isPending;

  const pick = (chosen: File | undefined) => {
    setResult(null);
    setFile(null);
    if (!chosen) return;
    if (!isJsonFile(chosen)) return errorToast(backupMsg.invalidFileType);
    // The data and its images; the server holds the data alone to its own limit.
    if (chosen.size > BACKUP_MAX_UPLOAD_MB * 1024 * 1024) return errorToast(backupMsg.fileTooLarge(BACKUP_MAX_FILE_MB));
    setFile(chosen);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (readOnly) return;
    if (!file) return errorToast(backupMsg.chooseFile);
    restore.mutate(file, {
      onSuccess: (res) => {
        setResult(res);
        setFile(null);
        if (input.current) input.current.value = '';
        toastSuccess(res.message);
      },
      onError: (error) => errorToast(errorMessage(error, backupMsg.restoreError)),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{backupMsg.restoreTitle}</CardTitle>
        <CardDescription>{backupMsg.restoreDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {locked ? (
          <LockedState />
        ) : (
          <form onSubmit={submit} noValidate className="grid max-w-xl gap-4">
            <div className="grid gap-2">
              <Label htmlFor={inputId}>{backupMsg.fileLabel}</Label>
              <input
                ref={input}
                id={inputId}
                type="file"
                accept=".json,application/json"
                disabled={busy || readOnly}
                aria-describedby={hintId}
                onChange={(e) => pick(e.target.files?.[0])}
                className="block w-full min-w-0 rounded-md border border-input bg-card p-2 text-sm file:mr-3 file:rounded file:border-0 file:bg-muted file:px-3 file:py-1.5 file:text-sm file:font-medium disabled:cursor-not-allowed disabled:opacity-50"
              />
              <p id={hintId} className="text-xs text-muted-foreground">
                {readOnly
                  ? msg.roles.demoReadOnly
                  : `${backupMsg.sizeHint} Para gerar um arquivo, use "Backup de Dados" no painel ou o botão abaixo.`}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy || readOnly} aria-busy={busy}>
                {busy ? <Spinner /> : <Upload aria-hidden />}
                {busy ? backupMsg.restoring : backupMsg.restoreButton}
              </Button>
              <BackupDownloadButton className="w-auto" label="Baixar backup atual" />
            </div>
            {result ? <RestoreOutcome result={result} /> : null}
          </form>
        )}
      </CardContent>
    </Card>
  );
}
