import { Megaphone, Plus, Search } from 'lucide-react';
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Campaign, campaignMsg } from '#contract/campaigns';
import { ConfirmDeleteDialog, useConfirmDelete } from '#web/components/confirm-delete';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { ListSkeleton } from '#web/components/list-skeleton';
import { LockedCard } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { Skeleton } from '#web/components/ui/skeleton';
import { useDeleteCampaign } from '#web/features/campaigns/api/delete-campaign';
import { useCampaigns } from '#web/features/campaigns/api/get-campaigns';
import { type CampaignCommand, useCampaignAction } from '#web/features/campaigns/api/run-campaign-action';
import { filterCampaigns } from '#web/features/campaigns/campaign-view';
import { CampaignCard, type CampaignCardHandlers } from '#web/features/campaigns/components/campaign-card';
import { CampaignReportDialog } from '#web/features/campaigns/components/campaign-report-dialog';
import { useNewCampaign } from '#web/features/campaigns/components/new-campaign-provider';
import { TestMessageDialog } from '#web/features/campaigns/components/test-message-dialog';
import { SavedMessagesCard } from '#web/features/messages/components/saved-messages-card';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useNow } from '#web/lib/use-now';

/** Success and failure texts of each card command (SPEC §8 and the contract's campaign messages). */
const COMMAND_TOASTS: Record<CampaignCommand, { ok: string; error: string }> = {
  send: { ok: campaignMsg.sent, error: campaignMsg.sendError },
  pause: { ok: campaignMsg.paused, error: campaignMsg.actionError },
  resume: { ok: campaignMsg.resumed, error: campaignMsg.actionError },
  cancel: { ok: campaignMsg.cancelled, error: campaignMsg.actionError },
  duplicate: { ok: campaignMsg.duplicated, error: campaignMsg.actionError },
};

/** A campaign card's shape while the list loads. */
function CardSkeleton(i: number) {
  return (
    <Card key={i} className="grid gap-3 p-5">
      <Skeleton className="h-5 w-56" />
      <Skeleton className="h-4 w-full max-w-lg" />
      <Skeleton className="h-14 w-full max-w-md" />
    </Card>
  );
}

/** /campaigns (SPEC §2): search, one card per campaign with live progress, the dialogs behind its actions. */
export default function CampaignsPage() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const campaigns = useCampaigns(readable);
  const action = useCampaignAction();
  const remove = useDeleteCampaign();
  const { openNewCampaign, openEditCampaign } = useNewCampaign();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const [cancelling, setCancelling] = useState<Campaign | null>(null);
  const { deleting, askDelete, dialog: deleteDialog } = useConfirmDelete<Campaign>(remove, campaignMsg);
  const [testing, setTesting] = useState<Campaign | null>(null);
  const [reportId, setReportId] = useState<string | null>(null);
  // A notification links to a campaign as ?report=<id>: its report opens, and the URL is cleaned.
  const [searchParams, setSearchParams] = useSearchParams();
  const linkedReport = searchParams.get('report');
  useEffect(() => {
    if (!linkedReport) return;
    setReportId(linkedReport);
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('report');
        return next;
      },
      { replace: true },
    );
  }, [linkedReport, setSearchParams]);
  // Expected finish times read 'em 12min': refresh them between polls.
  const now = useNow(30_000);

  const all = campaigns.data ?? [];
  const visible = useMemo(() => filterCampaigns(campaigns.data ?? [], q), [campaigns.data, q]);
  // The report follows the polled list, so its progress moves while it is open.
  const reportCampaign = reportId ? (all.find((c) => c.id === reportId) ?? null) : null;

  const runCommand = (campaign: Campaign, command: CampaignCommand, after?: () => void) =>
    action.mutate(
      { id: campaign.id, action: command },
      {
        onSuccess: () => {
          toastSuccess(COMMAND_TOASTS[command].ok);
          after?.();
        },
        onError: (error) => toastError(error, COMMAND_TOASTS[command].error),
      },
    );

  const handlers: CampaignCardHandlers = {
    onCommand: (c, command) => runCommand(c, command),
    onEdit: openEditCampaign,
    onTest: setTesting,
    onReport: (c) => setReportId(c.id),
    onCancel: setCancelling,
    onDelete: askDelete,
  };

  const newButton = (
    <PermissionGatedButton kind="campaign" icon={<Plus aria-hidden />} onClick={openNewCampaign}>
      Nova Campanha
    </PermissionGatedButton>
  );

  let body: ReactNode;
  if (!readable) {
    body = <LockedCard />;
  } else if (campaigns.isPending) {
    body = <ListSkeleton label="Carregando campanhas" rows={3} className="grid gap-4" renderRow={CardSkeleton} />;
  } else if (campaigns.isError) {
    body = (
      <Card>
        <ErrorState
          title="Não foi possível carregar as campanhas."
          onRetry={() => void campaigns.refetch()}
          retrying={campaigns.isFetching}
        />
      </Card>
    );
  } else if (visible.length === 0) {
    body = (
      <Card>
        {all.length > 0 ? (
          <EmptyState
            icon={Search}
            title="Nenhuma campanha encontrada"
            description="Nenhuma campanha tem este texto no nome ou na mensagem."
            action={
              <Button variant="outline" size="sm" onClick={() => setSearch('')}>
                Limpar busca
              </Button>
            }
          />
        ) : (
          <EmptyState
            className="py-12"
            icon={Megaphone}
            title="Nenhuma campanha criada ainda"
            description="Crie sua primeira campanha: escreva a mensagem, escolha o público e envie ou agende."
            action={newButton}
          />
        )}
      </Card>
    );
  } else {
    const busyCommand = (c: Campaign) =>
      action.isPending && action.variables?.id === c.id ? action.variables.action : null;
    body = (
      <ul className="grid gap-4" aria-label="Campanhas">
        {visible.map((c) => (
          <li key={c.id}>
            <CampaignCard campaign={c} now={now} busy={busyCommand(c)} handlers={handlers} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Campanhas</h2>
          <p className="text-sm text-muted-foreground">Crie, envie e acompanhe suas campanhas de WhatsApp.</p>
        </div>
        {readable ? newButton : null}
      </div>

      {readable ? (
        <div className="grid gap-2 sm:max-w-md">
          <Label htmlFor="campaign-search">Buscar campanhas</Label>
          <div className="relative">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id="campaign-search"
              type="search"
              className="pl-9"
              placeholder="Buscar campanhas..."
              autoComplete="off"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>
      ) : null}

      {body}

      <SavedMessagesCard />

      <TestMessageDialog campaign={testing} onClose={() => setTesting(null)} />
      <CampaignReportDialog campaign={reportCampaign} onClose={() => setReportId(null)} />

      <ConfirmDialog
        open={cancelling !== null}
        onCancel={() => setCancelling(null)}
        title="Cancelar campanha"
        description={
          <>
            Tem certeza que deseja cancelar a campanha {cancelling?.name}? As mensagens que ainda não saíram não serão
            enviadas, e uma campanha cancelada não pode ser retomada.
          </>
        }
        confirmLabel="Cancelar campanha"
        pending={action.isPending && action.variables?.action === 'cancel'}
        onConfirm={() => cancelling && runCommand(cancelling, 'cancel', () => setCancelling(null))}
      />

      <ConfirmDeleteDialog
        dialog={deleteDialog}
        title="Excluir campanha"
        description={
          <>
            Tem certeza que deseja excluir esta campanha? “{deleting?.name}” será removida com o seu relatório. Esta
            ação não pode ser desfeita.
          </>
        }
      />
    </div>
  );
}
