import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Save, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo } from 'react';
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
import { toastError } from '#web/lib/toasts';
import { buttonActionLabel, draftFromReply, emptyButtonDraft, emptyNewMessage } from '../auto-messages';
import { WhatsappPreview } from './whatsapp-preview';

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
  };

  // Each opening starts empty, or with the edited rule: only when `open` turns true or another rule
  // is chosen (`reset` is stable), so no render loop.
  const { reset } = form;
  const { reset: resetButton } = buttonForm;
  useEffect(() => {
    if (open) {
      reset(editing ? draftFromReply(editing) : emptyNewMessage);
      resetButton(emptyButtonDraft);
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

  const withButtons = draft.type !== 'text';
  const full = draft.buttons.length >= BOT_BUTTONS_MAX;
  const textMax = draft.type === 'image' ? BOT_CAPTION_MAX : BOT_TEXT_MAX;

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
                <Label htmlFor={ids.response}>{draft.type === 'image' ? 'Legenda da imagem' : 'Mensagem'}</Label>
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
            </div>

            <div className="grid content-start gap-2">
              <p className="text-sm font-semibold">Pré-visualização</p>
              <WhatsappPreview
                trigger={draft.trigger.trim()}
                response={draft.response}
                type={draft.type}
                imageUrl={draft.imageUrl.trim()}
                buttons={draft.buttons}
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
