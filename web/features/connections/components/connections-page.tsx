import { Plus, Smartphone } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { type ConnectionView, connectionsMsg } from '#contract/connections';
import { useConfirmDelete } from '#web/components/confirm-delete';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { ListSkeleton } from '#web/components/list-skeleton';
import { LockedCard } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatNumber } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { useConnections } from '#web/lib/queries/connections';
import { toastError, toastOutcome, toastSuccess } from '#web/lib/toasts';
import { useDeleteConnection } from '../api/delete-connection';
import { disconnectOutcome, useDisconnectConnection } from '../api/disconnect-connection';
import { useUpdateConnection } from '../api/update-connection';
import { AddConnectionDialog } from './add-connection-dialog';
import { ConnectConnectionDialog } from './connect-connection-dialog';
import { ConnectionCard } from './connection-card';
import { ConnectionSettingsDialog } from './connection-settings-dialog';
import { RenameConnectionDialog } from './rename-connection-dialog';

const UPDATE_FAILED = 'Não foi possível atualizar o número.';

/** A row-shaped placeholder while the numbers load. */
function CardSkeleton() {
  return (
    <div className="grid gap-3 border-b px-4 py-4 last:border-b-0">
      <Skeleton className="h-5 w-48" />
      <Skeleton className="h-4 w-64 max-w-full" />
      <Skeleton className="h-9 w-full" />
    </div>
  );
}

/** /numeros: the account's WhatsApp numbers, each with its state, health and actions; adding one within the plan. */
export default function ConnectionsPage() {
  const user = useAuthenticatedUser();
  const connections = useConnections();
  const update = useUpdateConnection();
  const disconnect = useDisconnectConnection();
  const remove = useDeleteConnection();
  const [adding, setAdding] = useState(false);
  const [pairing, setPairing] = useState<ConnectionView | null>(null);
  const [renaming, setRenaming] = useState<ConnectionView | null>(null);
  const [configuring, setConfiguring] = useState<ConnectionView | null>(null);
  const [disconnecting, setDisconnecting] = useState<ConnectionView | null>(null);
  const [freeing, setFreeing] = useState<ConnectionView | null>(null);
  const { askDelete, dialog: removeDialog } = useConfirmDelete<ConnectionView>(remove, {
    deleted: connectionsMsg.removed,
    deleteError: 'Não foi possível remover o número.',
  });
  const limitNoteId = useId();

  if (!canReadWorkspace(user)) {
    return <LockedCard />;
  }

  const list = connections.data?.connections ?? [];
  const limit = connections.data?.limit ?? null;
  const atLimit = connections.data != null && limit !== null && list.length >= limit;

  const patch = (c: ConnectionView, input: Parameters<typeof update.mutate>[0]['input']) =>
    update.mutate(
      { id: c.id, input },
      {
        onSuccess: (res) => toastSuccess(res.message),
        onError: (error) => toastError(error, UPDATE_FAILED),
      },
    );

  const confirmDisconnect = () => {
    if (!disconnecting) return;
    disconnect.mutate(
      disconnecting.id,
      disconnectOutcome(() => setDisconnecting(null)),
    );
  };

  const confirmFree = () => {
    if (!freeing) return;
    update.mutate(
      { id: freeing.id, input: { clearRestriction: true } },
      toastOutcome(
        () => setFreeing(null),
        (error) => toastError(error, 'Não foi possível liberar o número.'),
      ),
    );
  };

  const addButton = (
    <PermissionGatedButton
      icon={<Plus aria-hidden />}
      onClick={() => setAdding(true)}
      disabled={atLimit || connections.isPending}
      aria-describedby={atLimit ? limitNoteId : undefined}
      className="w-full sm:w-auto"
    >
      Adicionar número
    </PermissionGatedButton>
  );

  let body: ReactNode;
  if (connections.isPending) {
    body = (
      <ListSkeleton label="Carregando números" rows={2} className="grid" renderRow={(i) => <CardSkeleton key={i} />} />
    );
  } else if (connections.isError || !connections.data) {
    body = (
      <ErrorState
        title="Não foi possível carregar os números."
        onRetry={() => void connections.refetch()}
        retrying={connections.isFetching}
      />
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState
        icon={Smartphone}
        title="Nenhum número cadastrado"
        description="Adicione um número de WhatsApp pessoal ou da API oficial para enviar suas campanhas."
        action={atLimit ? null : addButton}
      />
    );
  } else {
    body = (
      <ul aria-label="Números de WhatsApp">
        {list.map((c) => (
          <ConnectionCard
            key={c.id}
            connection={c}
            busy={update.isPending && update.variables?.id === c.id}
            actions={{
              onConnect: setPairing,
              onDisconnect: setDisconnecting,
              onMakeDefault: (x) => patch(x, { isDefault: true }),
              onTogglePause: (x) => patch(x, { paused: !x.paused }),
              onToggleBot: (x, botEnabled) => patch(x, { botEnabled }),
              onRename: setRenaming,
              onConfigure: setConfiguring,
              onRemove: askDelete,
              onClearRestriction: setFreeing,
            }}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">{connectionsMsg.title}</h2>
          <p className="text-sm text-muted-foreground">{connectionsMsg.subtitle}</p>
          {connections.data ? (
            <p className="text-sm text-muted-foreground" data-testid="connections-usage">
              {limit === null
                ? `${formatNumber(list.length)} ${list.length === 1 ? 'número' : 'números'} · sem limite no seu plano`
                : `${formatNumber(list.length)} de ${formatNumber(limit)} ${limit === 1 ? 'número' : 'números'} do seu plano`}
            </p>
          ) : null}
        </div>
        {/* An empty list carries the button itself, as its way out. */}
        {connections.data && list.length === 0 ? null : addButton}
      </div>

      {atLimit && limit !== null ? (
        <p
          id={limitNoteId}
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="connections-limit"
        >
          {connectionsMsg.limitReached(limit)}{' '}
          <Link to={paths.settingsPlans} className="font-medium underline underline-offset-4">
            Ver planos
          </Link>
        </p>
      ) : null}

      <Card className="overflow-hidden p-0">{body}</Card>

      <AddConnectionDialog open={adding} onOpenChange={setAdding} />
      <ConnectConnectionDialog connection={pairing} onOpenChange={(open) => !open && setPairing(null)} />
      <RenameConnectionDialog connection={renaming} onOpenChange={(open) => !open && setRenaming(null)} />
      <ConnectionSettingsDialog connection={configuring} onOpenChange={(open) => !open && setConfiguring(null)} />
      <ConfirmDialog
        open={disconnecting !== null}
        onCancel={() => setDisconnecting(null)}
        title="Desconectar número?"
        description={`${disconnecting?.label ?? ''} para de enviar e de receber mensagens até você escanear o QR code de novo.`}
        confirmLabel="Desconectar"
        pending={disconnect.isPending}
        onConfirm={confirmDisconnect}
      />
      <ConfirmDialog
        open={freeing !== null}
        onCancel={() => setFreeing(null)}
        title="Liberar número?"
        description={connectionsMsg.confirmClearRestriction(freeing?.label ?? 'este número')}
        confirmLabel="Liberar número"
        pending={update.isPending && update.variables?.id === freeing?.id}
        onConfirm={confirmFree}
      />
      <ConfirmDialog
        {...removeDialog}
        title="Remover número?"
        description={connectionsMsg.confirmRemove}
        confirmLabel="Remover"
      />
    </div>
  );
}
