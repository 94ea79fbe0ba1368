import { zodResolver } from '@hookform/resolvers/zod';
import { ChevronRight, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { type FieldPath, useFieldArray, useForm } from 'react-hook-form';
import {
  autoReplyTypeLabels,
  BOT_AI_INSTRUCTIONS_MAX,
  BOT_TEXT_MAX,
  BOT_TRIGGER_MAX,
  type BotConfig,
  botMsg,
  CONVERSATION_IDLE_HOURS,
  DEFAULT_AI_MODEL,
  HANDOFF_MINUTES_MAX,
  HANDOFF_MINUTES_MIN,
} from '#contract/bot';
import {
  type BotConfigFormDraft,
  type BotConfigFormField,
  type BotReplyRowDraft,
  botConfigForm,
  botConfigFormFromConfig,
  emptyBotReplyRow,
} from '#contract/bot-config-form';
import { countLabel } from '#contract/plural';
import { FieldError } from '#web/components/field-error';
import { FormField } from '#web/components/form-field';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { SwitchRow } from '#web/components/ui/switch-row';
import { Textarea } from '#web/components/ui/textarea';
import { WeekdayToggles } from '#web/components/weekday-toggles';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatNumber } from '#web/lib/format';
import { useBotConfig } from '#web/lib/queries/get-bot-config';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { UnsavedChangesDialog, UnsavedChangesGuard } from '#web/lib/use-unsaved-changes-guard';
import { useSaveBotConfig } from '../api/save-bot-config';
import { aiUnavailableText, botConfigFormDirty } from '../bot-config-form';

/** What 'Bot ativo' says under it: the state it is in now. */
const botSwitchText = {
  on: 'Ligado: o bot responde automaticamente às mensagens.',
  off: 'Desligado: o bot não envia nenhuma resposta automática.',
} as const;

/** Suggestions only: any model name the configured OpenAI-compatible server knows is accepted. */
const AI_MODEL_SUGGESTIONS = [DEFAULT_AI_MODEL, 'gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini'];

/** Fields inside 'Mais opções': the section opens when one of them has a problem. */
const MORE_FIELDS: readonly BotConfigFormField[] = ['businessHours', 'outOfHoursMessage', 'handoffMinutes'];

/** The fields set as they are (the rows and the business hours have their own setters). */
type PlainField = Exclude<keyof BotConfigFormDraft, 'replies' | 'businessHours'>;

/** One keyword + response row; a rule made in the manager says what it keeps (buttons, image). */
function ReplyRowFields({
  row,
  index,
  stored,
  error,
  onChange,
  onRemove,
}: {
  row: BotReplyRowDraft;
  index: number;
  stored: BotConfig['autoReplies'][number] | undefined;
  error?: string;
  onChange: (patch: Partial<Pick<BotReplyRowDraft, 'keyword' | 'response'>>) => void;
  onRemove: () => void;
}) {
  const keywordId = useId();
  const responseId = useId();
  const errorId = useId();
  const extras =
    stored && stored.type !== 'text'
      ? [
          autoReplyTypeLabels[stored.type],
          stored.buttons.length > 0 ? countLabel(stored.buttons.length, 'botão', 'botões') : '',
        ]
          .filter(Boolean)
          .join(' · ')
      : '';
  return (
    <li className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)_auto] sm:items-start">
      <div className="grid gap-1.5">
        <Label htmlFor={keywordId}>Palavra-chave</Label>
        <Input
          id={keywordId}
          value={row.keyword}
          maxLength={BOT_TRIGGER_MAX}
          autoComplete="off"
          placeholder="preço"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange({ keyword: e.target.value })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={responseId}>Resposta</Label>
        <Textarea
          id={responseId}
          rows={2}
          value={row.response}
          maxLength={BOT_TEXT_MAX}
          placeholder="Nossos preços estão em..."
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange({ response: e.target.value })}
        />
        {extras || stored?.isActive === false ? (
          <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
            {extras ? <Badge tone="blue">{extras}</Badge> : null}
            {stored?.isActive === false ? <Badge tone="yellow">Pausada</Badge> : null}
            Mantidos ao salvar; edite em Mensagens Automáticas.
          </p>
        ) : null}
        <FieldError id={errorId} message={error} />
      </div>
      <Button variant="ghost" size="icon" className="justify-self-end text-red-700 sm:mt-6" onClick={onRemove}>
        <Trash2 aria-hidden />
        <span className="sr-only">Remover resposta {row.keyword.trim() || index + 1}</span>
      </Button>
    </li>
  );
}

function BotConfigForm({
  config,
  onClose,
  onDirtyChange,
}: {
  config: BotConfig;
  onClose: () => void;
  /** Told whether the form holds edits not saved yet (false again when it closes). */
  onDirtyChange: (dirty: boolean) => void;
}) {
  const user = useAuthenticatedUser();
  const save = useSaveBotConfig();
  // Checked on 'Salvar Configuração' only; a message goes away when what it concerns is edited (`set`).
  const schema = useMemo(() => botConfigForm(config), [config]);
  // The config as it opened (a refetch while open leaves the edits alone).
  const [defaultValues] = useState(() => botConfigFormFromConfig(config));
  const editor = useForm({
    resolver: zodResolver(schema),
    defaultValues,
    reValidateMode: 'onSubmit',
  });
  const replies = useFieldArray({ control: editor.control, name: 'replies' });
  const form = editor.watch();
  const dirty = botConfigFormDirty(form, config);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);
  const found = editor.formState.errors;
  const fieldErrors: Partial<Record<BotConfigFormField, string>> = {
    welcomeMessage: found.welcomeMessage?.message,
    aiModel: found.aiModel?.message,
    businessHours: found.businessHours?.message,
    outOfHoursMessage: found.outOfHoursMessage?.message,
    aiInstructions: found.aiInstructions?.message,
    handoffMinutes: found.handoffMinutes?.message,
  };
  const [moreOpen, setMoreOpen] = useState(false);
  const ids = {
    welcome: useId(),
    welcomeHint: useId(),
    welcomeError: useId(),
    repliesTitle: useId(),
    model: useId(),
    models: useId(),
    modelError: useId(),
    instructions: useId(),
    instructionsHint: useId(),
    instructionsError: useId(),
    start: useId(),
    end: useId(),
    hoursError: useId(),
    outOfHours: useId(),
    outOfHoursHint: useId(),
    outOfHoursError: useId(),
  };
  const storedById = new Map(config.autoReplies.map((r) => [r.id, r]));

  /** A message goes away as soon as what it concerns is edited (only when there is one). */
  const clearError = (name: FieldPath<BotConfigFormDraft>) => {
    if (editor.getFieldState(name).error) editor.clearErrors(name);
  };
  const set = <K extends PlainField>(key: K, value: BotConfigFormDraft[K]) => {
    editor.setValue(key, value as never);
    clearError(key);
  };
  const setHours = <K extends keyof BotConfigFormDraft['businessHours']>(
    key: K,
    value: BotConfigFormDraft['businessHours'][K],
  ) => {
    editor.setValue(`businessHours.${key}`, value as never);
    clearError('businessHours');
  };
  const setRow = (index: number, patch: Partial<Pick<BotReplyRowDraft, 'keyword' | 'response'>>) => {
    for (const [key, value] of Object.entries(patch) as ['keyword' | 'response', string][])
      editor.setValue(`replies.${index}.${key}`, value);
    clearError(`replies.${index}`);
  };

  const submit = editor.handleSubmit(
    (body) =>
      save.mutate(body, {
        onSuccess: () => {
          toastSuccess(botMsg.saved);
          onClose();
        },
        onError: (error) => toastError(error, botMsg.saveError),
      }),
    (errors) => {
      if (MORE_FIELDS.some((f) => errors[f])) setMoreOpen(true);
      if (errors.root?.message) toastError(errors.root.message);
    },
  );

  const aiLocked = !config.aiAvailable && !form.aiEnabled;

  return (
    <form onSubmit={submit} noValidate className="grid gap-6">
      <SwitchRow
        label="Bot ativo"
        description={form.isEnabled ? botSwitchText.on : botSwitchText.off}
        checked={form.isEnabled}
        onCheckedChange={(value) => set('isEnabled', value)}
      />

      <div className="grid gap-2">
        <Label htmlFor={ids.welcome}>Mensagem de boas-vindas</Label>
        <Textarea
          id={ids.welcome}
          rows={3}
          value={form.welcomeMessage}
          maxLength={BOT_TEXT_MAX}
          placeholder="Olá! Obrigado pelo contato. Como podemos ajudar?"
          aria-invalid={fieldErrors.welcomeMessage ? true : undefined}
          aria-describedby={[ids.welcomeHint, fieldErrors.welcomeMessage ? ids.welcomeError : null]
            .filter(Boolean)
            .join(' ')}
          onChange={(e) => set('welcomeMessage', e.target.value)}
        />
        <p id={ids.welcomeHint} className="text-xs text-muted-foreground">
          Enviada no início de cada conversa nova (após {CONVERSATION_IDLE_HOURS} h sem mensagens). Em branco: sem
          boas-vindas.
        </p>
        <FieldError id={ids.welcomeError} message={fieldErrors.welcomeMessage} />
      </div>

      <section aria-labelledby={ids.repliesTitle} className="grid gap-3">
        <div className="flex items-center justify-between gap-2">
          <h3 id={ids.repliesTitle} className="text-sm font-semibold">
            Respostas automáticas
          </h3>
          <span className="text-xs text-muted-foreground tabular-nums">{formatNumber(form.replies.length)}</span>
        </div>
        {form.replies.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
            Nenhuma resposta automática. Adicione uma palavra-chave e o que o bot deve responder.
          </p>
        ) : (
          <ul className="grid gap-2">
            {replies.fields.map((field, index) => {
              const row = form.replies[index] ?? field;
              return (
                <ReplyRowFields
                  key={field.id}
                  row={row}
                  index={index}
                  stored={row.ruleId ? storedById.get(row.ruleId) : undefined}
                  error={found.replies?.[index]?.message}
                  onChange={(patch) => setRow(index, patch)}
                  onRemove={() => replies.remove(index)}
                />
              );
            })}
          </ul>
        )}
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => replies.append(emptyBotReplyRow(), { shouldFocus: false })}
          >
            <Plus aria-hidden />
            Adicionar resposta
          </Button>
        </div>
      </section>

      <div className="grid gap-4 rounded-lg border p-4">
        <SwitchRow
          label="Integração com IA (ChatGPT)"
          description={
            config.aiAvailable
              ? 'Quando nenhuma palavra-chave combina, a IA responde com base na descrição do seu negócio.'
              : aiUnavailableText(user)
          }
          checked={form.aiEnabled}
          disabled={aiLocked}
          onCheckedChange={(value) => set('aiEnabled', value)}
        />
        {form.aiEnabled ? (
          <>
            <div className="grid gap-2 sm:max-w-xs">
              <Label htmlFor={ids.model}>Modelo de IA</Label>
              <Input
                id={ids.model}
                list={ids.models}
                value={form.aiModel}
                autoComplete="off"
                placeholder={DEFAULT_AI_MODEL}
                aria-invalid={fieldErrors.aiModel ? true : undefined}
                aria-describedby={fieldErrors.aiModel ? ids.modelError : undefined}
                onChange={(e) => set('aiModel', e.target.value)}
              />
              <datalist id={ids.models}>
                {AI_MODEL_SUGGESTIONS.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
              <FieldError id={ids.modelError} message={fieldErrors.aiModel} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.instructions}>Descrição do negócio para a IA</Label>
              <Textarea
                id={ids.instructions}
                rows={3}
                value={form.aiInstructions}
                maxLength={BOT_AI_INSTRUCTIONS_MAX}
                placeholder="Somos uma loja de roupas em Campinas. Entregamos em toda a cidade, de segunda a sábado."
                aria-invalid={fieldErrors.aiInstructions ? true : undefined}
                aria-describedby={[ids.instructionsHint, fieldErrors.aiInstructions ? ids.instructionsError : null]
                  .filter(Boolean)
                  .join(' ')}
                onChange={(e) => set('aiInstructions', e.target.value)}
              />
              <p id={ids.instructionsHint} className="text-xs text-muted-foreground">
                O que a IA deve saber para responder: produtos, preços, horários, formas de pagamento.
              </p>
              <FieldError id={ids.instructionsError} message={fieldErrors.aiInstructions} />
            </div>
          </>
        ) : null}
      </div>

      <details open={moreOpen} onToggle={(e) => setMoreOpen(e.currentTarget.open)} className="group rounded-lg border">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-4 py-3 text-sm font-medium hover:bg-muted/60 [&::-webkit-details-marker]:hidden">
          <ChevronRight aria-hidden className="size-4 transition-transform group-open:rotate-90" />
          Mais opções
          <span className="font-normal text-muted-foreground">
            · expediente, fora do expediente, atendimento humano
          </span>
        </summary>
        <div className="grid gap-5 border-t p-4">
          <fieldset className="grid gap-3" aria-describedby={fieldErrors.businessHours ? ids.hoursError : undefined}>
            <legend className="pb-2 text-sm font-medium">Horário de atendimento</legend>
            <div className="grid gap-3 sm:max-w-sm sm:grid-cols-2">
              <div className="grid gap-1.5">
                <Label htmlFor={ids.start}>Início</Label>
                <Input
                  id={ids.start}
                  type="time"
                  value={form.businessHours.start}
                  aria-invalid={fieldErrors.businessHours ? true : undefined}
                  onChange={(e) => setHours('start', e.target.value)}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={ids.end}>Fim</Label>
                <Input
                  id={ids.end}
                  type="time"
                  value={form.businessHours.end}
                  aria-invalid={fieldErrors.businessHours ? true : undefined}
                  onChange={(e) => setHours('end', e.target.value)}
                />
              </div>
            </div>
            <WeekdayToggles days={form.businessHours.days} onChange={(days) => setHours('days', days)} />
            <p className="text-xs text-muted-foreground">
              O mesmo expediente das configurações do WhatsApp, no horário de Brasília.
            </p>
            <FieldError id={ids.hoursError} message={fieldErrors.businessHours} />
          </fieldset>

          <div className="grid gap-2">
            <Label htmlFor={ids.outOfHours}>Mensagem fora do expediente</Label>
            <Textarea
              id={ids.outOfHours}
              rows={2}
              value={form.outOfHoursMessage}
              maxLength={BOT_TEXT_MAX}
              placeholder="Estamos fora do horário de atendimento. Respondemos assim que voltarmos!"
              aria-invalid={fieldErrors.outOfHoursMessage ? true : undefined}
              aria-describedby={[ids.outOfHoursHint, fieldErrors.outOfHoursMessage ? ids.outOfHoursError : null]
                .filter(Boolean)
                .join(' ')}
              onChange={(e) => set('outOfHoursMessage', e.target.value)}
            />
            <p id={ids.outOfHoursHint} className="text-xs text-muted-foreground">
              Enviada uma vez por dia a quem escreve fora do expediente. Em branco: o bot responde a qualquer hora.
            </p>
            <FieldError id={ids.outOfHoursError} message={fieldErrors.outOfHoursMessage} />
          </div>

          <div className="sm:max-w-xs">
            <FormField
              label="Tempo de atendimento humano (minutos)"
              type="number"
              inputMode="numeric"
              min={HANDOFF_MINUTES_MIN}
              max={HANDOFF_MINUTES_MAX}
              step={1}
              value={form.handoffMinutes}
              onChange={(e) => set('handoffMinutes', e.target.value)}
              error={fieldErrors.handoffMinutes}
              hint={`Quando o cliente pede um atendente, o bot fica em silêncio nessa conversa por esse tempo (de ${HANDOFF_MINUTES_MIN} a ${formatNumber(HANDOFF_MINUTES_MAX)}).`}
            />
          </div>
        </div>
      </details>

      {/* The edits live only here until saved: leaving the page asks first. */}
      <UnsavedChangesGuard when={dirty} />

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={save.isPending}>
          Cancelar
        </Button>
        <PermissionGatedButton
          kind="bot"
          type="submit"
          disabled={save.isPending}
          icon={save.isPending ? <Spinner /> : null}
        >
          {save.isPending ? 'Salvando...' : 'Salvar Configuração'}
        </PermissionGatedButton>
      </DialogFooter>
    </form>
  );
}

function FormSkeleton() {
  return (
    <div className="grid gap-4" role="status" aria-busy="true" aria-label="Carregando configuração">
      <Skeleton className="h-6 w-full" />
      <Skeleton className="h-20 w-full" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}

/** 'Configurar Chatbot' (SPEC §2): loads the config while open and saves it whole. */
export function BotConfigDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const user = useAuthenticatedUser();
  // SPEC §7: the dialog asks for the config only while it is open (the page shares the same query).
  const config = useBotConfig(open && canReadWorkspace(user));
  const [dirty, setDirty] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  // 'Cancelar' and a save close at once; Escape, a click outside or the X ask first when there are edits.
  const close = () => onOpenChange(false);
  const dismiss = (next: boolean) => {
    if (!next && dirty) setConfirmClose(true);
    else onOpenChange(next);
  };

  return (
    <>
      <Dialog open={open} onOpenChange={dismiss}>
        <DialogContent className="sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>Configurar Chatbot</DialogTitle>
            <DialogDescription>
              Ative o bot, escreva as boas-vindas e as respostas por palavra-chave, e ligue a IA se quiser.
            </DialogDescription>
          </DialogHeader>
          {config.isPending ? (
            <FormSkeleton />
          ) : config.isError || !config.data ? (
            <ErrorState
              title="Não foi possível carregar a configuração do bot."
              onRetry={() => void config.refetch()}
              retrying={config.isFetching}
            />
          ) : (
            <BotConfigForm config={config.data} onClose={close} onDirtyChange={setDirty} />
          )}
        </DialogContent>
      </Dialog>
      <UnsavedChangesDialog
        open={open && confirmClose}
        description="Você tem alterações não salvas na configuração do chatbot. Se fechar agora, elas serão perdidas."
        onLeave={() => {
          setConfirmClose(false);
          close();
        }}
        onStay={() => setConfirmClose(false)}
      />
    </>
  );
}
