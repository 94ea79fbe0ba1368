import { Inbox, Plus } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { QUEUE_LIMIT, type Queue, queuesMsg } from '#contract/queues';
import { ConfirmDeleteDialog, useConfirmDelete } from '#web/components/confirm-delete';
import { ListSkeleton } from '#web/components/list-skeleton';
import { LockedPage } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace, teamAllows } from '#web/lib/auth/permissions';
import { formatNumber } from '#web/lib/format';
import { useConnections } from '#web/lib/queries/connections';
import { useQueues } from '#web/lib/queries/get-queues';
import { useTeamDirectory } from '#web/lib/queries/get-team-directory';
import { useDeleteQueue } from '../api/delete-queue';
import { QueueCard } from './queue-card';
import { QueueDialog } from './queue-dialog';

const DELETE_TEXTS = {
  deleted: queuesMsg.deleted,
  deleteError: 'Não foi possível excluir a fila. Tente novamente.',
};

/** A card-shaped placeholder while the queues load. */
function QueueSkeleton(i: number) {
  return (
    <div key={i} className="grid gap-3 rounded-xl border bg-card p-4">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-4 w-32" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-3/4" />
    </div>
  );
}

/** Names by id, for the cards; undefined until (or unless) the list is readable. */
function namesById(list: readonly { id: string; name: string }[] | undefined): Map<string, string> | undefined {
  return list ? new Map(list.map((x) => [x.id, x.name])) : undefined;
}

/**
 * /filas (Filas): the team's queues, each with its numbers, people, hours and open conversations.
 * Every role reads them; the owner and managers create, edit and delete them (an agent sees no
 * button: the server would refuse).
 */
export default function QueuesPage() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const keeper = teamAllows(user, 'manager');
  const queues = useQueues(readable);
  // An agent does not read the numbers (the cards then count them); the directory every role reads.
  const connections = useConnections();
  const directory = useTeamDirectory(readable);
  const remove = useDeleteQueue();
  const { deleting, askDelete, dialog: deleteDialog } = useConfirmDelete<Queue>(remove, DELETE_TEXTS);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Queue | null>(null);

  const numberNames = useMemo(
    () => namesById(connections.data?.connections.map((c) => ({ id: c.id, name: c.label }))),
    [connections.data],
  );
  const memberNames = useMemo(() => namesById(directory.data), [directory.data]);

  const header = (
    <div className="grid gap-1">
      <h2 className="text-lg font-semibold">{queuesMsg.title}</h2>
      <p className="text-sm text-muted-foreground">{queuesMsg.description}</p>
    </div>
  );
  if (!readable) return <LockedPage header={header} />;

  const edit = (queue: Queue | null) => {
    setEditing(queue);
    setDialogOpen(true);
  };

  const list = queues.data ?? [];
  const full = list.length >= QUEUE_LIMIT;
  const createButton = (
    <PermissionGatedButton
      icon={<Plus aria-hidden />}
      disabled={full || queues.isPending}
      title={full ? queuesMsg.limitReached : undefined}
      className="w-full sm:w-auto"
      onClick={() => edit(null)}
    >
      Nova Fila
    </PermissionGatedButton>
  );

  let body: ReactNode;
  if (queues.isPending) {
    body = (
      <ListSkeleton label="Carregando filas" rows={2} className="grid gap-4 md:grid-cols-2" renderRow={QueueSkeleton} />
    );
  } else if (queues.isError) {
    body = (
      <Card>
        <ErrorState
          title="Não foi possível carregar as filas."
          onRetry={() => void queues.refetch()}
          retrying={queues.isFetching}
        />
      </Card>
    );
  } else if (list.length === 0) {
    body = (
      <Card>
        <EmptyState
          icon={Inbox}
          title="Nenhuma fila ainda"
          description={
            keeper
              ? 'Crie filas como Vendas ou Financeiro: escolha os números, quem atende e o horário de cada uma.'
              : 'Quem administra a conta ainda não criou filas. Enquanto isso, todas as conversas ficam em Conversas.'
          }
          action={createButton}
        />
      </Card>
    );
  } else {
    body = (
      <ul
        className="grid grid-cols-1 gap-4 md:grid-cols-2"
        aria-label={queuesMsg.title}
        aria-busy={queues.isFetching || undefined}
      >
        {list.map((q) => (
          <QueueCard
            key={q.id}
            queue={q}
            numberNames={numberNames}
            memberNames={memberNames}
            onEdit={() => edit(q)}
            onDelete={() => askDelete(q)}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          {header}
          {queues.data && list.length > 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="queues-count">
              {formatNumber(list.length)} de {formatNumber(QUEUE_LIMIT)} filas
            </p>
          ) : null}
        </div>
        {/* An empty list carries the button itself, as its way out. */}
        {queues.data && list.length === 0 ? null : createButton}
      </div>

      {full ? (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {queuesMsg.limitReached}
        </p>
      ) : null}

      {body}

      {keeper ? <QueueDialog open={dialogOpen} queue={editing} onOpenChange={setDialogOpen} /> : null}
      <ConfirmDeleteDialog
        dialog={deleteDialog}
        title="Excluir fila?"
        description={
          <>
            A fila <strong className="font-medium text-foreground">{deleting?.name}</strong> será excluída. Suas
            conversas continuam em Conversas, sem fila. Esta ação não pode ser desfeita.
          </>
        }
      />
    </div>
  );
}
