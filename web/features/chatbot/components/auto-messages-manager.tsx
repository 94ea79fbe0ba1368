import { MessageSquareText, Plus, Save, Sparkles, Undo2 } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { sampleAutoReplies } from '../../../../contract/bot';
import { LockedState } from '../../../components/locked-state';
import { PermissionGatedButton } from '../../../components/permission-gated-button';
import { EmptyState, ErrorState } from '../../../components/states';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { useAuthenticatedUser } from '../../../lib/auth/get-me';
import { canReadWorkspace } from '../../../lib/auth/permissions';
import { usePublicConfig } from '../../../lib/public-config';
import { useBotConfig } from '../../../lib/queries/get-bot-config';
import { toastError, toastSuccess } from '../../../lib/toasts';
import { UnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';
import { useSaveBotConfig } from '../api/save-bot-config';
import {
  autoMessagesMsg,
  type ManagedReply,
  managedFromConfig,
  managerPayload,
  removeReply,
  sameReplies,
  sampleRepliesToAdd,
  toggleReplyActive,
} from '../auto-messages';
import { AutoMessageCard } from './auto-message-card';
import { NewAutoMessageDialog } from './new-auto-message-dialog';

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
 * 'Mensagens Automáticas WhatsApp' (SPEC §2, §4): keyword rules with a phone-style preview. Adds,
 * deletes and pauses stay in the browser until 'Salvar Configurações' saves the whole config.
 */
export function AutoMessagesManager() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const config = useBotConfig(readable);
  const publicConfig = usePublicConfig();
  const save = useSaveBotConfig();
  const [draft, setDraft] = useState<ManagedReply[] | null>(null);
  const [newOpen, setNewOpen] = useState(false);

  const serverList = useMemo(() => (config.data ? managedFromConfig(config.data.autoReplies) : []), [config.data]);
  const dirty = draft !== null && !sameReplies(draft, serverList);
  // Without local changes the list follows the server, so a save from 'Configurar Chatbot' shows here too.
  const list = dirty && draft ? draft : serverList;

  // A local change is not kept yet: the toast says what keeps it (no 'Sucesso!').
  const toastUnsaved = (description: string) => toast({ title: autoMessagesMsg.unsavedTitle, description });

  const create = (reply: ManagedReply) => {
    setDraft([...list, reply]);
    setNewOpen(false);
    toastUnsaved(autoMessagesMsg.added);
  };

  const remove = (reply: ManagedReply) => {
    setDraft(removeReply(list, reply.key));
    toastUnsaved(autoMessagesMsg.removed);
  };

  const addSamples = () => {
    const samples = sampleAutoReplies({ phone: publicConfig.data?.supportWhatsapp ?? '', email: user.email });
    setDraft([...list, ...sampleRepliesToAdd(samples, list)]);
    toastUnsaved(autoMessagesMsg.samplesAdded);
  };

  const submit = () => {
    if (!config.data) return;
    save.mutate(managerPayload(config.data, list), {
      onSuccess: () => {
        setDraft(null);
        toastSuccess(autoMessagesMsg.saved);
      },
      onError: (error) => toastError(error, autoMessagesMsg.saveError),
    });
  };

  const newButton = (label: string, variant: 'default' | 'outline' = 'default') => (
    <PermissionGatedButton
      kind="bot"
      size="sm"
      variant={variant}
      icon={<Plus aria-hidden />}
      onClick={() => setNewOpen(true)}
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
    const neverConfigured = serverList.length === 0;
    body = (
      <EmptyState
        className="py-10"
        icon={MessageSquareText}
        title="Nenhuma mensagem configurada"
        description={
          neverConfigured
            ? 'Crie respostas por palavra-chave, com botões ou imagem, ou comece pelas mensagens de exemplo de saudação, produtos e suporte.'
            : 'Todas as mensagens foram removidas. Crie uma nova ou salve para deixar o bot sem respostas automáticas.'
        }
        action={
          <div className="flex flex-wrap justify-center gap-2">
            {newButton('Criar Primeira Mensagem')}
            {neverConfigured ? (
              <PermissionGatedButton
                kind="bot"
                size="sm"
                variant="outline"
                icon={<Sparkles aria-hidden />}
                onClick={addSamples}
              >
                Usar mensagens de exemplo
              </PermissionGatedButton>
            ) : null}
          </div>
        }
      />
    );
  } else {
    body = (
      <ul className="grid gap-4 xl:grid-cols-2" aria-label="Mensagens automáticas">
        {list.map((reply) => (
          <li key={reply.key} className="grid">
            <AutoMessageCard
              reply={reply}
              onToggle={() => setDraft(toggleReplyActive(list, reply.key))}
              onDelete={() => remove(reply)}
            />
          </li>
        ))}
      </ul>
    );
  }

  const ready = readable && !config.isPending && !config.isError && Boolean(config.data);

  return (
    <Card>
      <CardHeader className="flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <h2 className="text-base leading-tight font-semibold tracking-tight">Mensagens Automáticas WhatsApp</h2>
          <CardDescription>
            Respostas enviadas quando o cliente manda uma palavra-chave: texto, mensagem interativa com botões ou
            imagem.
          </CardDescription>
        </div>
        {ready ? (
          <div className="flex flex-wrap gap-2">
            {list.length > 0 ? newButton('Nova Mensagem', 'outline') : null}
            <PermissionGatedButton
              kind="bot"
              size="sm"
              icon={save.isPending ? <Spinner /> : <Save aria-hidden />}
              disabled={!dirty || save.isPending}
              onClick={submit}
            >
              {save.isPending ? 'Salvando...' : 'Salvar Configurações'}
            </PermissionGatedButton>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {ready && dirty ? (
          <div
            role="status"
            className="flex flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
          >
            <p>
              <strong className="font-semibold">Alterações não salvas.</strong> Adições, exclusões e pausas só valem
              depois de Salvar Configurações.
            </p>
            <Button
              variant="ghost"
              size="sm"
              className="self-start text-amber-900 hover:bg-amber-100 sm:self-auto"
              onClick={() => setDraft(null)}
              disabled={save.isPending}
            >
              <Undo2 aria-hidden />
              Descartar alterações
            </Button>
          </div>
        ) : null}
        {body}
      </CardContent>
      <NewAutoMessageDialog open={newOpen} onOpenChange={setNewOpen} replies={list} onCreate={create} />
      {/* Leaving the page (menu, back button, another tab of the dashboard, reload) would lose the draft. */}
      <UnsavedChangesGuard when={ready && dirty} />
    </Card>
  );
}
