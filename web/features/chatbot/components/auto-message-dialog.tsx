import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Save, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  type AutoReply,
  type AutoReplyRule,
  autoReplyButtonForm,
  autoReplyForm,
  autoReplyTypeLabels,
  autoReplyTypes,
  BOT_BUTTON_TEXT_MAX,
  BOT_BUTTONS_MAX,
  BOT_CAPTION_MAX,
  BOT_TEXT_MAX,
  BOT_TRIGGER_MAX,
  type BotButton,
  type BotButtonType,
  botButtonTypeLabels,
  botButtonTypes,
  isFileRule,
} from '#contract/bot';
import { countLabel } from '#contract/plural';
import { FieldError } from '#web/components/field-error';
import { FormField } from '#web/components/form-field';
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
import { LabelledOptions, NativeSelect } from '#web/components/ui/select';
import { Spinner } from '#web/components/ui/spinner';
import { Textarea } from '#web/components/ui/textarea';
import { formatNumber } from '#web/lib/format';
import { useQueues } from '#web/lib/queries/get-queues';
import { toastError } from '#web/lib/toasts';
import { uploadFile } from '#web/lib/upload-image';
import { buttonActionLabel, draftFromReply, emptyButtonDraft, emptyNewMessage } from '../auto-messages';
import { WhatsappPreview } from './whatsapp-preview';

/** What the file picker offers for each file rule (the server decides by the bytes). */
const FILE_ACCEPT: Record<string, string> = {
  document: '.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv',
  audio: 'audio/*,.ogg,.opus,.mp3,.m4a,.aac,.amr',
  video: 'video/mp4,video/3gpp,.mp4,.3gp',
};

const VALUE_LABELS: Record<BotButtonType, { label: string; placeholder: string }> = {
  url: { label: 'Link', placeholder: 'https://www.suaempresa.com.br' },
  phone: { label: 'Telefone com DDD', placeholder: '5511999999999' },
  quick_reply: { label: 'Palavra-chave', placeholder: 'produtos' },
};

/**
 * 'Criar Nova Mensagem Automática', and 'Editar Mensagem Automática' with the same form prefilled.
 * Its button keeps the rule at once (`onSubmit`); the dialog stays open, with what was typed, until
 * the server has it.
 */
export function AutoMessageDialog({
  open,
  onOpenChange,
  editing,
  replies,
  pending,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The stored rule being edited; null to create one. */
  editing: AutoReply | null;
  /** The account's rules, for the repeated-keyword check (the edited one aside). */
  replies: readonly AutoReply[];
  /** The save is under way. */
  pending: boolean;
  onSubmit: (rule: AutoReplyRule) => void;
}) {
  // Both forms are checked on their button only (errors do not come and go while typing).
  const keywords = useMemo(
    () => replies.filter((r) => r.id !== editing?.id).map((r) => r.trigger || r.keyword),
    [replies, editing],
  );
  const form = useForm({
    resolver: zodResolver(autoReplyForm(keywords)),
    defaultValues: emptyNewMessage,
    reValidateMode: 'onSubmit',
  });
  const draft = form.watch();
  const buttonForm = useForm({
    resolver: zodResolver(autoReplyButtonForm(draft.buttons)),
    defaultValues: emptyButtonDraft,
    reValidateMode: 'onSubmit',
  });
  const button = buttonForm.watch();
  const buttonError = buttonForm.formState.errors.root?.message;
  const ids = {
    type: useId(),
    response: useId(),
    responseHint: useId(),
    buttonType: useId(),
    buttonText: useId(),
    buttonValue: useId(),
    buttonError: useId(),
    buttonsTitle: useId(),
    file: useId(),
    queue: useId(),
    queueHint: useId(),
  };
  // The account's queues (Filas): a rule can hand the conversation to one of them.
  const queues = useQueues(open).data ?? [];

  // Each opening starts empty, or with the edited rule: only when `open` turns true or another rule
  // is chosen (`reset` is stable), so no render loop.
  const { reset } = form;
  const { reset: resetButton } = buttonForm;
  useEffect(() => {
    if (open) {
      reset(editing ? draftFromReply(editing) : emptyNewMessage);
      resetButton(emptyButtonDraft);
      setFileName('');
    }
  }, [open, editing, reset, resetButton]);

  const setButtons = (buttons: BotButton[]) => form.setValue('buttons', buttons);
  // Editing the button row takes its error away (only when there is one).
  const buttonField = (name: 'text' | 'type' | 'value') =>
    buttonForm.register(name, {
      onChange: () => {
        if (buttonForm.formState.errors.root) buttonForm.clearErrors();
      },
    });

  const withButtons = draft.type === 'interactive' || draft.type === 'image';
  const full = draft.buttons.length >= BOT_BUTTONS_MAX;
  const captioned = draft.type === 'image' || draft.type === 'document' || draft.type === 'video';
  const textMax = captioned ? BOT_CAPTION_MAX : BOT_TEXT_MAX;
  const [uploading, setUploading] = useState(false);
  const [fileName, setFileName] = useState('');
  const pickFile = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const uploaded = await uploadFile(file);
      form.setValue('mediaUrl', `upload:${uploaded.id}`);
      setFileName(uploaded.fileName);
    } catch (err) {
      toastError(err, 'Não foi possível enviar o arquivo. Tente novamente.');
    } finally {
      setUploading(false);
    }
  };

  const addButton = buttonForm.handleSubmit(
    (added) => {
      setButtons([...draft.buttons, added]);
      resetButton({ ...emptyButtonDraft, type: added.type });
    },
    (errors) => {
      if (errors.root?.message) toastError(errors.root.message);
    },
  );

  const submit = form.handleSubmit(
    (rule) => {
      if (!pending) onSubmit({ ...rule, isActive: editing?.isActive ?? true });
    },
    (errors) => {
      if (errors.root?.message) toastError(errors.root.message);
    },
  );

  const valueText = VALUE_LABELS[button.type];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Editar Mensagem Automática' : 'Criar Nova Mensagem Automática'}</DialogTitle>
          <DialogDescription>
            Quando um cliente enviar a palavra-chave, o bot responde com esta mensagem.
            {editing ? ' As alterações valem assim que você salvar.' : ' Ela vale assim que você a adicionar.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid min-w-0 gap-6">
          <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,16rem)]">
            <div className="grid content-start gap-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  label="Palavra-chave"
                  {...form.register('trigger')}
                  maxLength={BOT_TRIGGER_MAX}
                  autoComplete="off"
                  placeholder="oi"
                  hint="Sem diferença entre maiúsculas e acentos."
                />
                <div className="grid content-start gap-2">
                  <Label htmlFor={ids.type}>Tipo de mensagem</Label>
                  <NativeSelect id={ids.type} {...form.register('type')}>
                    <LabelledOptions values={autoReplyTypes} labels={autoReplyTypeLabels} />
                  </NativeSelect>
                </div>
              </div>

              <div className="grid gap-2">
                <Label htmlFor={ids.response}>
                  {draft.type === 'image'
                    ? 'Legenda da imagem'
                    : captioned
                      ? 'Legenda (opcional)'
                      : isFileRule(draft.type) || draft.type === 'location' || draft.type === 'contact'
                        ? 'Mensagem enviada em seguida (opcional)'
                        : 'Mensagem'}
                </Label>
                <Textarea
                  id={ids.response}
                  rows={4}
                  {...form.register('response')}
                  maxLength={textMax}
                  placeholder="Olá! Como podemos ajudar você hoje?"
                  aria-describedby={ids.responseHint}
                />
                <p id={ids.responseHint} className="text-xs text-muted-foreground tabular-nums">
                  {formatNumber(draft.response.length)}/{formatNumber(textMax)}
                </p>
              </div>

              {draft.type === 'image' ? (
                <FormField
                  label="Link da imagem"
                  type="url"
                  inputMode="url"
                  {...form.register('imageUrl')}
                  placeholder="https://www.suaempresa.com.br/imagem.jpg"
                  hint="Um endereço público que comece com https://."
                  autoComplete="off"
                />
              ) : null}

              {isFileRule(draft.type) ? (
                <div className="grid gap-2">
                  <Label htmlFor={ids.file}>Arquivo</Label>
                  <Input
                    id={ids.file}
                    type="file"
                    accept={FILE_ACCEPT[draft.type]}
                    disabled={uploading}
                    onChange={(e) => void pickFile(e.target.files?.[0])}
                  />
                  <p className="text-xs text-muted-foreground" aria-live="polite">
                    {uploading
                      ? 'Enviando arquivo...'
                      : fileName
                        ? `Arquivo: ${fileName}`
                        : draft.mediaUrl
                          ? 'Arquivo escolhido.'
                          : 'Nenhum arquivo escolhido.'}
                  </p>
                </div>
              ) : null}

              {draft.type === 'location' ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField
                    label="Latitude"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="-23.5505"
                    {...form.register('location.latitude')}
                  />
                  <FormField
                    label="Longitude"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="-46.6333"
                    {...form.register('location.longitude')}
                  />
                  <FormField
                    label="Nome do local"
                    autoComplete="off"
                    placeholder="Loja Centro"
                    {...form.register('location.name')}
                  />
                  <FormField
                    label="Endereço"
                    autoComplete="off"
                    placeholder="Rua Exemplo, 100 - São Paulo"
                    {...form.register('location.address')}
                  />
                </div>
              ) : null}

              {draft.type === 'contact' ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField
                    label="Nome do contato"
                    autoComplete="off"
                    placeholder="Ana Vendas"
                    {...form.register('contactCard.name')}
                  />
                  <FormField
                    label="Telefone do contato"
                    type="tel"
                    autoComplete="off"
                    placeholder="(21) 99876-5432"
                    {...form.register('contactCard.phone')}
                  />
                </div>
              ) : null}

              {withButtons ? (
                <section aria-labelledby={ids.buttonsTitle} className="grid min-w-0 gap-3 rounded-lg border p-4">
                  <div className="flex items-baseline justify-between gap-2">
                    <h3 id={ids.buttonsTitle} className="text-sm font-semibold">
                      Botões
                    </h3>
                    <span className="text-xs text-muted-foreground tabular-nums">
                      {draft.buttons.length}/{BOT_BUTTONS_MAX}
                    </span>
                  </div>
                  {draft.buttons.length > 0 ? (
                    <ul className="grid min-w-0 gap-2">
                      {draft.buttons.map((b) => (
                        <li
                          key={b.id}
                          className="flex min-w-0 items-center gap-2 rounded-md bg-muted/60 px-3 py-2 text-sm"
                        >
                          <span className="min-w-0 flex-1">
                            <span className="block truncate font-medium">{b.text}</span>
                            <span className="block truncate text-xs text-muted-foreground">{buttonActionLabel(b)}</span>
                          </span>
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-8"
                            onClick={() => setButtons(draft.buttons.filter((x) => x.id !== b.id))}
                          >
                            <Trash2 aria-hidden />
                            <span className="sr-only">Remover botão {b.text}</span>
                          </Button>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-muted-foreground">
                      Até {countLabel(BOT_BUTTONS_MAX, 'botão', 'botões')}: um link, um telefone para ligar ou uma
                      resposta rápida que dispara outra palavra-chave.
                    </p>
                  )}
                  {full ? (
                    <p className="text-xs text-muted-foreground">
                      Limite de {countLabel(BOT_BUTTONS_MAX, 'botão', 'botões')} do WhatsApp.
                    </p>
                  ) : (
                    <div className="grid gap-3">
                      <div className="grid gap-3 sm:grid-cols-2">
                        <div className="grid gap-2">
                          <Label htmlFor={ids.buttonText}>Texto do botão</Label>
                          <Input
                            id={ids.buttonText}
                            maxLength={BOT_BUTTON_TEXT_MAX}
                            autoComplete="off"
                            placeholder="Ver produtos"
                            {...buttonField('text')}
                          />
                        </div>
                        <div className="grid gap-2">
                          <Label htmlFor={ids.buttonType}>Ação do botão</Label>
                          <NativeSelect id={ids.buttonType} {...buttonField('type')}>
                            <LabelledOptions values={botButtonTypes} labels={botButtonTypeLabels} />
                          </NativeSelect>
                        </div>
                      </div>
                      <div className="grid gap-2">
                        <Label htmlFor={ids.buttonValue}>{valueText.label}</Label>
                        <Input
                          id={ids.buttonValue}
                          type={button.type === 'url' ? 'url' : button.type === 'phone' ? 'tel' : 'text'}
                          autoComplete="off"
                          placeholder={valueText.placeholder}
                          aria-invalid={buttonError ? true : undefined}
                          aria-describedby={buttonError ? ids.buttonError : undefined}
                          {...buttonField('value')}
                          onKeyDown={(e) => {
                            if (e.key === 'Enter') {
                              e.preventDefault();
                              void addButton();
                            }
                          }}
                        />
                        <FieldError id={ids.buttonError} message={buttonError} />
                      </div>
                      <div>
                        <Button variant="outline" size="sm" onClick={() => void addButton()}>
                          <Plus aria-hidden />
                          Adicionar botão
                        </Button>
                      </div>
                    </div>
                  )}
                </section>
              ) : null}

              {queues.length > 0 || draft.queueId ? (
                <div className="grid content-start gap-2">
                  <Label htmlFor={ids.queue}>Encaminhar para a fila</Label>
                  <NativeSelect id={ids.queue} aria-describedby={ids.queueHint} {...form.register('queueId')}>
                    <option value="">Nenhuma (o bot continua atendendo)</option>
                    {queues.map((q) => (
                      <option key={q.id} value={q.id}>
                        {q.name}
                      </option>
                    ))}
                  </NativeSelect>
                  <p id={ids.queueHint} className="text-xs text-muted-foreground">
                    Depois desta resposta, a conversa vai para a fila e uma pessoa da equipe assume; o bot fica em
                    silêncio nela.
                  </p>
                </div>
              ) : null}
            </div>

            <div className="grid content-start gap-2">
              <p className="text-sm font-semibold">Pré-visualização</p>
              <WhatsappPreview
                trigger={draft.trigger.trim()}
                response={draft.response}
                type={draft.type}
                imageUrl={draft.imageUrl.trim()}
                buttons={draft.buttons}
                extras={{ fileName, location: draft.location, contactCard: draft.contactCard }}
              />
            </div>
          </div>

          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancelar
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : editing ? <Save aria-hidden /> : <Plus aria-hidden />}
              {pending ? 'Salvando...' : editing ? 'Salvar Mensagem' : 'Adicionar Mensagem'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
