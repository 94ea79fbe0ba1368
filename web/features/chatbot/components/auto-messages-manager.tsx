import { MessageSquareText, Plus, Sparkles } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { type AutoReply, type AutoReplyRule, botMsg, sampleAutoReplies } from '#contract/bot';
import { ConfirmDeleteDialog, useConfirmDelete } from '#web/components/confirm-delete';
import { LockedState } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { usePublicConfig } from '#web/lib/public-config';
import { useBotConfig } from '#web/lib/queries/get-bot-config';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useAddAutoReply } from '../api/add-auto-reply';
import { useDeleteAutoReply } from '../api/delete-auto-reply';
import { useSaveBotConfig } from '../api/save-bot-config';
import { useUpdateAutoReply } from '../api/update-auto-reply';
import { autoMessagesMsg, managerPayload, sampleRepliesToAdd, toggledRuleInput } from '../auto-messages';
import { AutoMessageCard } from './auto-message-card';
import { AutoMessageDialog } from './auto-message-dialog';

function ListSkeleton() {
  return (
    <div className="grid gap-4 xl:grid-cols-2" role="status" aria-busy="true" aria-label="Carregando mensagens">
      {[0, 1].map((i) => (
        <Card key={i} className="grid gap-4 p-4 sm:grid-cols-[15rem_1fr]">
          <Skeleton className="h-40 w-full" />
          <div className="grid content-start gap-3">
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-9 w-48" />
          </div>
        </Card>
      ))}
    </div>
  );
}

/**
 * 'Mensagens Automáticas WhatsApp' (SPEC §2): keyword rules with a phone-style preview. Each add,
 * edit, pause and delete is kept at once, one action each (we depart from SPEC §4's 'local until
 * Salvar Configurações': docs/decisions/025-working-from-a-phone.md); a delete asks first.
 */
export function AutoMessagesManager() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const config = useBotConfig(readable);
  const publicConfig = usePublicConfig();
  const saveAll = useSaveBotConfig();
  const add = useAddAutoReply();
  const update = useUpdateAutoReply();
  const remove = useDeleteAutoReply();
  const [dialog, setDialog] = useState<{ open: boolean; editing: AutoReply | null }>({ open: false, editing: null });
  const confirmDelete = useConfirmDelete<AutoReply>(remove, {
    deleted: botMsg.ruleRemoved,
    deleteError: autoMessagesMsg.deleteError,
  });

  const list = config.data?.autoReplies ?? [];
  const openDialog = (editing: AutoReply | null) => setDialog({ open: true, editing });
  const closeDialog = () => setDialog((d) => ({ ...d, open: false }));

  const submit = (rule: AutoReplyRule) => {
    const done = {
      onSuccess: (saved: { message: string }) => {
        toastSuccess(saved.message);
        closeDialog();
      },
    };
    if (dialog.editing) {
      update.mutate(
        { id: dialog.editing.id, rule },
        { ...done, onError: (error) => toastError(error, autoMessagesMsg.updateError) },
      );
    } else {
      add.mutate(rule, { ...done, onError: (error) => toastError(error, autoMessagesMsg.addError) });
    }
  };

  const toggle = (reply: AutoReply) =>
    update.mutate(
      { id: reply.id, rule: toggledRuleInput(reply) },
      {
        onSuccess: (saved) => toastSuccess(saved.message),
        onError: (error) => toastError(error, autoMessagesMsg.updateError),
      },
    );

  const addSamples = () => {
    if (!config.data) return;
    const samples = sampleAutoReplies({ phone: publicConfig.data?.supportWhatsapp ?? '', email: user.email });
    saveAll.mutate(managerPayload(config.data, sampleRepliesToAdd(samples, list)), {
      onSuccess: () => toastSuccess(autoMessagesMsg.saved),
      onError: (error) => toastError(error, autoMessagesMsg.saveError),
    });
  };

  const newButton = (label: string, variant: 'default' | 'outline' = 'default') => (
    <PermissionGatedButton
      kind="bot"
      size="sm"
      variant={variant}
      icon={<Plus aria-hidden />}
      onClick={() => openDialog(null)}
    >
      {label}
    </PermissionGatedButton>
  );

  let body: ReactNode;
  if (!readable) {
    body = <LockedState className="py-10" />;
  } else if (config.isPending) {
    body = <ListSkeleton />;
  } else if (config.isError || !config.data) {
    body = (
      <ErrorState
        title="Não foi possível carregar as mensagens automáticas."
        onRetry={() => void config.refetch()}
        retrying={config.isFetching}
      />
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState
        className="py-10"
        icon={MessageSquareText}
        title="Nenhuma mensagem configurada"
        description="Crie respostas por palavra-chave, com botões ou imagem, ou comece pelas mensagens de exemplo de saudação, produtos e suporte."
        action={
          <div className="flex flex-wrap justify-center gap-2">
            {newButton('Criar Primeira Mensagem')}
            <PermissionGatedButton
              kind="bot"
              size="sm"
              variant="outline"
              disabled={saveAll.isPending}
              icon={saveAll.isPending ? <Spinner /> : <Sparkles aria-hidden />}
              onClick={addSamples}
            >
              Usar mensagens de exemplo
            </PermissionGatedButton>
          </div>
        }
      />
    );
  } else {
    body = (
      <ul className="grid gap-4 xl:grid-cols-2" aria-label="Mensagens automáticas">
        {list.map((reply) => (
          <li key={reply.id} className="grid">
            <AutoMessageCard
              reply={reply}
              busy={update.isPending && update.variables?.id === reply.id}
              onEdit={() => openDialog(reply)}
              onToggle={() => toggle(reply)}
              onDelete={() => confirmDelete.askDelete(reply)}
            />
          </li>
        ))}
      </ul>
    );
  }

  const ready = readable && !config.isPending && !config.isError && Boolean(config.data);
  const deleting = confirmDelete.deleting;

  return (
    <Card>
      <CardHeader className="flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <h2 className="text-base leading-tight font-semibold tracking-tight">Mensagens Automáticas WhatsApp</h2>
          <CardDescription>
            Respostas enviadas quando o cliente manda uma palavra-chave: texto, mensagem interativa com botões ou
            imagem. Cada alteração vale na hora.
          </CardDescription>
        </div>
        {ready && list.length > 0 ? (
          <div className="flex flex-wrap gap-2">{newButton('Nova Mensagem', 'outline')}</div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">{body}</CardContent>
      <AutoMessageDialog
        open={dialog.open}
        onOpenChange={(open) => (open ? setDialog((d) => ({ ...d, open })) : closeDialog())}
        editing={dialog.editing}
        replies={list}
        pending={add.isPending || update.isPending}
        onSubmit={submit}
      />
      <ConfirmDeleteDialog
        dialog={confirmDelete.dialog}
        title="Excluir mensagem automática?"
        description={
          deleting
            ? `O bot deixa de responder à palavra-chave “${deleting.trigger || deleting.keyword}”. Esta ação não pode ser desfeita.`
            : ''
        }
      />
    </Card>
  );
}
