import { Download, FileSpreadsheet, Upload } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { contactsMsg, type ImportResult, importErrorLine, toCsv } from '#contract/contacts';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { formatNumber } from '#web/lib/format';
import { toastSuccess } from '#web/lib/toasts';
import { type ImportPhase, importTemplateUrl, useImportContacts } from '../api/import-contacts';

/** The two import templates offered under 'Baixar modelo:'. */
const templates = [
  { format: 'csv', icon: Download, label: 'Modelo CSV' },
  { format: 'xlsx', icon: FileSpreadsheet, label: 'Modelo Excel' },
] as const;

const ACCEPTED = /\.(csv|txt|xls|xlsx)$/i;
const ACCEPTED_TYPES = new Set([
  'text/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

function rejectedRowsUrl(result: ImportResult): string {
  const table = [
    ['Linha', 'Motivo', 'Nome', 'Telefone', 'Email', 'Tags'],
    ...result.errors.map((e) => [String(e.row), e.reason, e.name, e.phone, e.email, e.tags]),
  ];
  return URL.createObjectURL(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }));
}

/** 'Importar Contatos': file picker, templates, upload and processing progress, result with rejected rows. */
export function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const importer = useImportContacts();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<ImportPhase | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [rejectedUrl, setRejectedUrl] = useState<string | null>(null);
  const inputId = useId();

  useEffect(() => {
    if (!open) {
      setFile(null);
      setProgress(null);
      setResult(null);
    }
  }, [open]);

  useEffect(() => {
    if (!result?.errors.length) return setRejectedUrl(null);
    const url = rejectedRowsUrl(result);
    setRejectedUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [result]);

  const pick = (chosen: File | undefined) => {
    setResult(null);
    if (!chosen) return setFile(null);
    if (!ACCEPTED.test(chosen.name) && !ACCEPTED_TYPES.has(chosen.type)) {
      setFile(null);
      toast({ title: contactsMsg.invalidFileTitle, description: contactsMsg.invalidFile, variant: 'destructive' });
      return;
    }
    setFile(chosen);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      toast({ title: contactsMsg.invalidFileTitle, description: contactsMsg.invalidFile, variant: 'destructive' });
      return;
    }
    importer.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (res) => {
          setResult(res);
          if (res.success) {
            toastSuccess(contactsMsg.importDone(res.imported));
          } else {
            toast({ title: contactsMsg.importErrorTitle, description: res.message, variant: 'destructive' });
          }
        },
        onError: (error) =>
          toast({
            title: contactsMsg.importErrorTitle,
            description: errorMessage(error, contactsMsg.importError),
            variant: 'destructive',
          }),
        onSettled: () => setProgress(null),
      },
    );
  };

  const busy = importer.isPending;
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Importar Contatos</DialogTitle>
          <DialogDescription>
            Envie um arquivo CSV, TXT ou Excel com as colunas Nome, Telefone, Email e Tags. Números repetidos são
            ignorados.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">Baixar modelo:</span>
          {templates.map(({ format, icon: Icon, label }) => (
            <Button key={format} variant="outline" size="sm" asChild>
              <a href={importTemplateUrl(format)} download>
                <Icon aria-hidden />
                {label}
              </a>
            </Button>
          ))}
        </div>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Arquivo de contatos</Label>
            <input
              id={inputId}
              type="file"
              accept=".csv,.txt,.xlsx,.xls,text/csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              disabled={busy}
              onChange={(e) => pick(e.target.files?.[0])}
              className="block w-full rounded-md border border-input bg-card p-2 text-sm file:mr-3 file:rounded file:border-0 file:bg-muted file:px-3 file:py-1.5 file:text-sm file:font-medium"
            />
          </div>

          {progress ? (
            <div className="grid gap-2" aria-live="polite">
              <div className="flex justify-between text-sm">
                <span>{progress.phase === 'upload' ? 'Enviando arquivo...' : 'Processando contatos...'}</span>
                {progress.phase === 'upload' ? <span className="tabular-nums">{progress.percent}%</span> : null}
              </div>
              <div
                role="progressbar"
                aria-label={progress.phase === 'upload' ? 'Envio do arquivo' : 'Processamento'}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress.phase === 'upload' ? progress.percent : undefined}
                className="h-2 overflow-hidden rounded-full bg-muted"
              >
                <div
                  className={
                    progress.phase === 'upload'
                      ? 'h-full bg-primary transition-[width]'
                      : 'h-full w-1/3 animate-pulse bg-primary'
                  }
                  style={progress.phase === 'upload' ? { width: `${progress.percent}%` } : undefined}
                />
              </div>
            </div>
          ) : null}

          {result ? (
            <section aria-label="Resultado da importação" className="grid gap-3 rounded-md border p-4 text-sm">
              <p className="font-medium">{result.message}</p>
              <dl className="grid grid-cols-3 gap-2 text-center">
                <div className="rounded bg-green-50 p-2">
                  <dt className="text-xs text-muted-foreground">Importados</dt>
                  <dd className="text-lg font-semibold tabular-nums">{formatNumber(result.imported)}</dd>
                </div>
                <div className="rounded bg-amber-50 p-2">
                  <dt className="text-xs text-muted-foreground">Duplicados</dt>
                  <dd className="text-lg font-semibold tabular-nums">{formatNumber(result.duplicates)}</dd>
                </div>
                <div className="rounded bg-red-50 p-2">
                  <dt className="text-xs text-muted-foreground">Com erro</dt>
                  <dd className="text-lg font-semibold tabular-nums">{formatNumber(result.errors.length)}</dd>
                </div>
              </dl>
              {result.errors.length > 0 ? (
                <>
                  <ul className="grid max-h-32 gap-1 overflow-y-auto text-xs text-muted-foreground">
                    {result.errors.slice(0, 20).map((e) => (
                      <li key={e.row}>{importErrorLine(e)}</li>
                    ))}
                  </ul>
                  {rejectedUrl ? (
                    <Button variant="outline" size="sm" asChild>
                      <a href={rejectedUrl} download="linhas-rejeitadas.csv">
                        <Download aria-hidden />
                        Baixar linhas rejeitadas
                      </a>
                    </Button>
                  ) : null}
                </>
              ) : null}
            </section>
          ) : null}

          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              {result ? 'Concluir' : 'Cancelar'}
            </Button>
            <Button type="submit" disabled={busy || !file}>
              {busy ? <Spinner /> : <Upload aria-hidden />}
              {busy ? 'Importando...' : 'Importar'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
