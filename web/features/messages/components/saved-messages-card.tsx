import { Code, ImageIcon, MessageSquare, Paperclip, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { type SavedMessage, savedMessagesMsg } from '#contract/saved-messages';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { WhatsappMessage } from '#web/components/whatsapp-message';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatDateTime } from '#web/lib/format';
import { useSavedMessages } from '#web/lib/queries/get-saved-messages';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useDeleteSavedMessage } from '../api/delete-saved-message';
import { ComposeMessageDialog } from './compose-message-dialog';

const TYPE_LABELS: Record<SavedMessage['type'], string> = { contacts: 'Contatos', groups: 'Grupos' };

function SavedMessageItem({
  message,
  onEdit,
  onDelete,
}: {
  message: SavedMessage;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <li className="grid gap-2 rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 flex-1 gap-1">
          <p className="truncate font-medium" title={message.title}>
            {message.title}
          </p>
          <div className="flex flex-wrap gap-1.5">
            <Badge tone="outline">{TYPE_LABELS[message.type]}</Badge>
            {message.hasImage ? (
              <Badge tone="blue">
                <ImageIcon aria-hidden />
                Com imagem
              </Badge>
            ) : null}
            {!message.hasImage && message.mediaUrl ? (
              <Badge tone="blue">
                <Paperclip aria-hidden />
                <span className="max-w-40 truncate">{message.media?.fileName || 'Com arquivo'}</span>
              </Badge>
            ) : null}
            {message.contentType === 'html' ? (
              <Badge tone="purple">
                <Code aria-hidden />
                HTML
              </Badge>
            ) : null}
            {message.enableMessage ? null : <Badge tone="neutral">Desabilitada</Badge>}
          </div>
        </div>
        <div className="flex shrink-0 gap-1">
          {[
            { verb: 'Editar', Icon: Pencil, onClick: onEdit },
            { verb: 'Excluir', Icon: Trash2, onClick: onDelete },
          ].map(({ verb, Icon, onClick }) => (
            <PermissionGatedButton
              key={verb}
              kind="message"
              variant="ghost"
              size="sm"
              icon={<Icon aria-hidden />}
              labelClassName="sr-only"
              onClick={onClick}
            >
              {`${verb} mensagem ${message.title}`}
            </PermissionGatedButton>
          ))}
        </div>
      </div>
      <WhatsappMessage
        text={message.preview}
        imageUrl={message.hasImage ? (message.uploadUrl ?? message.imageUrl) : null}
        className="justify-items-start"
        textClassName="line-clamp-3 text-sm text-muted-foreground"
        imageClassName="h-24 w-auto max-w-full"
      />
      <p className="text-xs text-muted-foreground">Atualizada em {formatDateTime(message.updatedAt)}</p>
    </li>
  );
}

/** 'Mensagens salvas': the account's composed messages, to edit, delete or compose anew. */
export function SavedMessagesCard() {
  const user = useAuthenticatedUser();
  const messages = useSavedMessages(canReadWorkspace(user));
  const remove = useDeleteSavedMessage();
  const [composeOpen, setComposeOpen] = useState(false);
  const [editing, setEditing] = useState<SavedMessage | null>(null);
  const [deleting, setDeleting] = useState<SavedMessage | null>(null);

  const compose = (message: SavedMessage | null) => {
    setEditing(message);
    setComposeOpen(true);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toastSuccess(savedMessagesMsg.deleted);
        setDeleting(null);
      },
      onError: (error) => toastError(error, savedMessagesMsg.deleteError),
    });
  };

  const composeButton = (label: string) => (
    <PermissionGatedButton kind="message" size="sm" icon={<Plus aria-hidden />} onClick={() => compose(null)}>
      {label}
    </PermissionGatedButton>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Mensagens salvas</CardTitle>
          <CardDescription>Mensagens prontas para usar nas campanhas.</CardDescription>
        </div>
        {messages.data?.length ? composeButton('Nova Mensagem') : null}
      </CardHeader>
      <CardContent>
        {messages.isPending ? (
          <div className="grid gap-3" aria-hidden>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-24 w-full" />
            ))}
          </div>
        ) : messages.isError ? (
          <ErrorState
            title="Não foi possível carregar as mensagens salvas."
            onRetry={() => void messages.refetch()}
            retrying={messages.isFetching}
          />
        ) : !messages.data?.length ? (
          <EmptyState
            icon={MessageSquare}
            title={savedMessagesMsg.emptyList}
            description="Componha uma mensagem, com imagem se quiser, e use-a nas suas campanhas."
            action={composeButton('Compor Mensagem')}
          />
        ) : (
          <ul className="grid gap-3">
            {messages.data.map((m) => (
              <SavedMessageItem key={m.id} message={m} onEdit={() => compose(m)} onDelete={() => setDeleting(m)} />
            ))}
          </ul>
        )}
      </CardContent>

      <ComposeMessageDialog open={composeOpen} onOpenChange={setComposeOpen} message={editing} />
      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        title="Excluir mensagem?"
        description={
          deleting ? (
            <>
              <strong className="font-medium text-foreground">{deleting.title}</strong> será excluída.{' '}
              {savedMessagesMsg.deleteConfirm}
            </>
          ) : null
        }
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </Card>
  );
}
