import { MessageSquareText, Paperclip, Plus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { QUICK_REPLY_LIMIT, type QuickReply, quickRepliesMsg } from '#contract/quick-replies';
import { ConfirmDeleteDialog, useConfirmDelete } from '#web/components/confirm-delete';
import { ListSkeleton } from '#web/components/list-skeleton';
import { LockedState } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EditDeleteButtons } from '#web/components/row-actions';
import { EmptyState, ErrorState } from '#web/components/states';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadAs, canReadWorkspace } from '#web/lib/auth/permissions';
import { useQuickReplies } from '#web/lib/queries/get-quick-replies';
import { useDeleteQuickReply } from '../api/delete-quick-reply';
import { QuickReplyDialog } from './quick-reply-dialog';

const DELETE_TEXTS = {
  deleted: quickRepliesMsg.deleted,
  deleteError: 'Não foi possível excluir a resposta rápida. Tente novamente.',
};

function QuickReplyItem({ reply, onEdit, onDelete }: { reply: QuickReply; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="flex items-start gap-3 rounded-lg border p-3">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate font-mono text-sm font-medium" title={`/${reply.shortcut}`}>
          /{reply.shortcut}
        </p>
        <p className="line-clamp-2 text-sm break-words whitespace-pre-line text-muted-foreground">{reply.text}</p>
        {reply.media ? (
          <p
            className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground"
            data-testid="quick-reply-item-file"
            title={reply.media.fileName ?? undefined}
          >
            <Paperclip aria-hidden className="size-3.5 shrink-0" />
            <span className="sr-only">Arquivo: </span>
            <span className="truncate">{reply.media.fileName || 'Arquivo anexado'}</span>
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-1">
        <EditDeleteButtons name={`/${reply.shortcut}`} onEdit={onEdit} onDelete={onDelete} />
      </div>
    </li>
  );
}

/**
 * 'Respostas rápidas': the team's ready answers, which anyone answering in Conversas types as
 * `/atalho`; the owner and managers create, edit and delete them here.
 */
export function QuickRepliesCard() {
  const user = useAuthenticatedUser();
  const locked = !canReadWorkspace(user);
  const replies = useQuickReplies(canReadAs(user, 'manager'));
  const remove = useDeleteQuickReply();
  const { deleting, askDelete, dialog: deleteDialog } = useConfirmDelete<QuickReply>(remove, DELETE_TEXTS);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<QuickReply | null>(null);

  const edit = (reply: QuickReply | null) => {
    setEditing(reply);
    setDialogOpen(true);
  };

  const list = replies.data ?? [];
  const full = list.length >= QUICK_REPLY_LIMIT;
  const createButton = (label: string) => (
    <PermissionGatedButton
      kind="message"
      size="sm"
      icon={<Plus aria-hidden />}
      disabled={full}
      title={full ? quickRepliesMsg.limitReached : undefined}
      onClick={() => edit(null)}
    >
      {label}
    </PermissionGatedButton>
  );

  let body: ReactNode;
  if (locked) {
    body = <LockedState />;
  } else if (replies.isPending) {
    body = <ListSkeleton label="Carregando respostas rápidas" rows={3} className="grid gap-3" />;
  } else if (replies.isError) {
    body = (
      <ErrorState
        title="Não foi possível carregar as respostas rápidas."
        onRetry={() => void replies.refetch()}
        retrying={replies.isFetching}
      />
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState
        icon={MessageSquareText}
        title="Nenhuma resposta rápida ainda"
        description="Crie textos prontos, como /boas-vindas ou /horario, e use-os nas conversas digitando / e o atalho."
        action={createButton('Criar Resposta Rápida')}
      />
    );
  } else {
    body = (
      <ul className="grid gap-2" aria-label={quickRepliesMsg.title}>
        {list.map((r) => (
          <QuickReplyItem key={r.id} reply={r} onEdit={() => edit(r)} onDelete={() => askDelete(r)} />
        ))}
      </ul>
    );
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>{quickRepliesMsg.title}</CardTitle>
          <CardDescription>{quickRepliesMsg.description}</CardDescription>
        </div>
        {!locked && list.length > 0 ? createButton('Nova Resposta') : null}
      </CardHeader>
      <CardContent>{body}</CardContent>

      <QuickReplyDialog open={dialogOpen} reply={editing} onOpenChange={setDialogOpen} />
      <ConfirmDeleteDialog
        dialog={deleteDialog}
        title="Excluir resposta rápida?"
        description={
          <>
            A resposta <strong className="font-mono font-medium text-foreground">/{deleting?.shortcut}</strong> será
            excluída para toda a equipe. Esta ação não pode ser desfeita.
          </>
        }
      />
    </Card>
  );
}
