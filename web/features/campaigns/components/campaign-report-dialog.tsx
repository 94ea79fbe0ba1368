import { ChevronLeft, ChevronRight, Download, Inbox } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import {
  type Campaign,
  type CampaignRecipient,
  RECIPIENT_STATUS_LABELS,
  type RecipientStatus,
  recipientStatuses,
} from '#contract/campaigns';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { EmptyState, ErrorState } from '#web/components/states';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog';
import { Label } from '#web/components/ui/label';
import { LabelledOptions, NativeSelect } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { formatDateTime, formatNumber } from '#web/lib/format';
import { toastError } from '#web/lib/toasts';
import { useIsMobile } from '#web/lib/use-media-query';
import { type RecipientsExportFormat, useExportCampaignRecipients } from '../api/export-campaign-recipients';
import { useCampaignNumbers } from '../api/get-campaign-numbers';
import { RECIPIENTS_PAGE_SIZE, useCampaignRecipients } from '../api/get-campaign-recipients';
import { isRunningStatus } from '../status';
import { CampaignNumbersReport, showsNumbers } from './campaign-numbers-report';
import { CampaignProgress } from './campaign-progress';

const RECIPIENT_TONES: Record<RecipientStatus, BadgeTone> = {
  queued: 'neutral',
  sending: 'blue',
  sent: 'blue',
  delivered: 'green',
  read: 'brand',
  failed: 'red',
  skipped: 'yellow',
};

function RecipientStatusBadge({ status }: { status: RecipientStatus }) {
  return <Badge tone={RECIPIENT_TONES[status] ?? 'outline'}>{RECIPIENT_STATUS_LABELS[status] ?? status}</Badge>;
}

function when(value: string | null): string {
  return value ? formatDateTime(value) : '—';
}

function recipientLabel(r: CampaignRecipient): string {
  return r.kind === 'group' ? 'Grupo' : formatPhone(r.recipient);
}

/** Which number sent a line: its label and phone ('Vendas', '+55 11 98765-4321'); null when none did (yet). */
type NumberOf = (r: CampaignRecipient) => { label: string; phone: string | null } | null;

function SentFrom({ number }: { number: ReturnType<NumberOf> }) {
  if (!number) return <>—</>;
  return (
    <>
      <span className="block">{number.label}</span>
      {number.phone ? <span className="block whitespace-nowrap text-muted-foreground">{number.phone}</span> : null}
    </>
  );
}

function RecipientsTable({ items, numberOf }: { items: CampaignRecipient[]; numberOf: NumberOf }) {
  // 'Número' only when the page says which number sent (campaigns over several numbers).
  const withNumber = items.some((r) => numberOf(r));
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Destinatários da campanha</caption>
        <thead className="bg-muted/60 text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Destinatário
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
            {withNumber ? (
              <th scope="col" className="px-3 py-2 font-medium">
                Número
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Tentativas
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Enviada
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Entregue
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Lida
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Erro
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.id} className="border-t align-top" data-testid="recipient-row">
              <td className="px-3 py-2">
                <span className="block font-medium">{r.name || recipientLabel(r)}</span>
                <span className="block text-xs whitespace-nowrap text-muted-foreground tabular-nums">
                  {recipientLabel(r)}
                </span>
              </td>
              <td className="px-3 py-2">
                <RecipientStatusBadge status={r.status} />
              </td>
              {withNumber ? (
                <td className="px-3 py-2 text-xs" data-testid="recipient-number">
                  <SentFrom number={numberOf(r)} />
                </td>
              ) : null}
              <td className="px-3 py-2 text-right tabular-nums">{formatNumber(r.attempts)}</td>
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">{when(r.sentAt)}</td>
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">{when(r.deliveredAt)}</td>
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">{when(r.readAt)}</td>
              <td className="max-w-56 px-3 py-2 text-xs text-red-700">{r.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RecipientsCards({ items, numberOf }: { items: CampaignRecipient[]; numberOf: NumberOf }) {
  return (
    <ul className="grid gap-2" aria-label="Destinatários da campanha">
      {items.map((r) => (
        <li key={r.id} className="grid gap-2 rounded-md border p-3 text-sm" data-testid="recipient-row">
          <div className="flex items-start justify-between gap-2">
            <div className="grid min-w-0">
              <span className="truncate font-medium">{r.name || recipientLabel(r)}</span>
              <span className="text-xs text-muted-foreground tabular-nums">{recipientLabel(r)}</span>
            </div>
            <RecipientStatusBadge status={r.status} />
          </div>
          <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
            <dt className="text-muted-foreground">Enviada</dt>
            <dd className="tabular-nums">{when(r.sentAt)}</dd>
            <dt className="text-muted-foreground">Entregue</dt>
            <dd className="tabular-nums">{when(r.deliveredAt)}</dd>
            <dt className="text-muted-foreground">Lida</dt>
            <dd className="tabular-nums">{when(r.readAt)}</dd>
            <dt className="text-muted-foreground">Tentativas</dt>
            <dd className="tabular-nums">{formatNumber(r.attempts)}</dd>
            {numberOf(r) ? (
              <>
                <dt className="text-muted-foreground">Número</dt>
                <dd>
                  <SentFrom number={numberOf(r)} />
                </dd>
              </>
            ) : null}
          </dl>
          {r.error ? <p className="text-xs text-red-700">{r.error}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Relatório': every recipient of a campaign with its status and times, filtered by status, a page
 * at a time, refreshed while the campaign runs, and exported as CSV or Excel.
 */
export function CampaignReportDialog({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const [status, setStatus] = useState<RecipientStatus | ''>('');
  const [page, setPage] = useState(1);
  const filterId = useId();
  const isMobile = useIsMobile();
  const open = campaign !== null;
  const recipients = useCampaignRecipients(
    campaign?.id ?? '',
    { status, page },
    campaign !== null && isRunningStatus(campaign.status),
    open,
  );
  const numbers = useCampaignNumbers(campaign?.id ?? '', campaign !== null && isRunningStatus(campaign.status), open);
  const exportFile = useExportCampaignRecipients();

  // Each campaign's report starts unfiltered on its first page.
  const campaignId = campaign?.id;
  useEffect(() => {
    if (campaignId) {
      setStatus('');
      setPage(1);
    }
  }, [campaignId]);

  const runExport = (format: RecipientsExportFormat) => {
    if (!campaign) return;
    exportFile.mutate(
      { id: campaign.id, format, status },
      { onError: (error) => toastError(error, 'Não foi possível exportar o relatório. Tente novamente.') },
    );
  };

  const data = recipients.data;
  const perNumber = numbers.data !== undefined && showsNumbers(campaign?.connectionIds, numbers.data);
  const pages = data ? Math.max(1, Math.ceil(data.total / RECIPIENTS_PAGE_SIZE)) : 1;

  let body: ReactNode;
  if (recipients.isPending) {
    body = (
      <div className="grid gap-2" role="status" aria-busy="true" aria-label="Carregando destinatários">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  } else if (recipients.isError || !data) {
    body = (
      <ErrorState
        title="Não foi possível carregar os destinatários."
        onRetry={() => void recipients.refetch()}
        retrying={recipients.isFetching}
      />
    );
  } else if (data.items.length === 0) {
    body = (
      <EmptyState
        icon={Inbox}
        title={status ? 'Nenhum destinatário com este status' : 'Nenhum destinatário ainda'}
        description={
          status
            ? 'Escolha outro status ou mostre todos.'
            : 'Os destinatários aparecem aqui assim que o envio da campanha começa.'
        }
        action={
          status ? (
            <Button variant="outline" size="sm" onClick={() => setStatus('')}>
              Mostrar todos
            </Button>
          ) : undefined
        }
      />
    );
  } else {
    // The per-number answer names each number with its phone written out; the line's own words otherwise.
    const names = new Map(
      (numbers.data?.numbers ?? []).map((n) => [
        n.connectionId,
        { label: n.label, phone: n.phoneNumber ? formatPhone(n.phoneNumber) : null },
      ]),
    );
    // Only for campaigns over several numbers: with one number the column would repeat it on every line.
    const numberOf: NumberOf = (r) =>
      perNumber
        ? ((r.connectionId ? names.get(r.connectionId) : undefined) ??
          (r.sentFrom ? { label: r.sentFrom, phone: null } : null))
        : null;
    body = isMobile ? (
      <RecipientsCards items={data.items} numberOf={numberOf} />
    ) : (
      <RecipientsTable items={data.items} numberOf={numberOf} />
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-5xl">
        <DialogHeader>
          <DialogTitle>Relatório da campanha</DialogTitle>
          <DialogDescription>
            {campaign?.name}: a situação de cada destinatário
            {campaign && isRunningStatus(campaign.status) ? ', atualizada durante o envio' : ''}.
          </DialogDescription>
        </DialogHeader>

        {campaign?.progress && campaign.progress.total > 0 ? (
          <CampaignProgress progress={campaign.progress} label={`Progresso do envio de ${campaign.name}`} />
        ) : null}

        {perNumber && numbers.data ? <CampaignNumbersReport data={numbers.data} /> : null}

        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="grid gap-2 sm:w-56">
            <Label htmlFor={filterId}>Filtrar por status</Label>
            <NativeSelect
              id={filterId}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as RecipientStatus | '');
                setPage(1);
              }}
            >
              <option value="">Todos</option>
              <LabelledOptions values={recipientStatuses} labels={RECIPIENT_STATUS_LABELS} />
            </NativeSelect>
          </div>
          <div className="grid grid-cols-2 gap-2 sm:flex">
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button key={format} variant="outline" disabled={exportFile.isPending} onClick={() => runExport(format)}>
                {exportFile.isPending && exportFile.variables?.format === format ? (
                  <Spinner />
                ) : (
                  <Download aria-hidden />
                )}
                {format === 'csv' ? 'Exportar CSV' : 'Exportar XLSX'}
              </Button>
            ))}
          </div>
        </div>

        <div aria-busy={recipients.isFetching}>{body}</div>

        {data && data.total > 0 ? (
          <nav className="flex items-center justify-between gap-2" aria-label="Paginação dos destinatários">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              <ChevronLeft aria-hidden />
              Anterior
            </Button>
            <span className="text-center text-sm text-muted-foreground">
              Página {page} de {pages} · {countLabel(data.total, 'destinatário', 'destinatários')}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Próxima
              <ChevronRight aria-hidden />
            </Button>
          </nav>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
