import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import {
  type AutoReplyType,
  autoReplyTypeLabels,
  autoReplyTypes,
  BOT_BUTTON_TEXT_MAX,
  BOT_BUTTONS_MAX,
  BOT_CAPTION_MAX,
  BOT_TEXT_MAX,
  BOT_TRIGGER_MAX,
  type BotButtonType,
  botButtonTypeLabels,
  botButtonTypes,
} from '../../../../contract/bot';
import { countLabel } from '../../../../contract/plural';
import { FieldError } from '../../../components/field-error';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { formatNumber } from '../../../lib/format';
import { toastError } from '../../../lib/toasts';
import {
  type ButtonDraft,
  buttonActionLabel,
  checkNewButton,
  checkNewMessage,
  emptyButtonDraft,
  emptyNewMessage,
  type ManagedReply,
  type NewMessageDraft,
} from '../auto-messages';
import { WhatsappPreview } from './whatsapp-preview';

const VALUE_LABELS: Record<BotButtonType, { label: string; placeholder: string }> = {
  url: { label: 'Link', placeholder: 'https://www.suaempresa.com.br' },
  phone: { label: 'Telefone com DDD', placeholder: '5511999999999' },
  quick_reply: { label: 'Palavra-chave', placeholder: 'produtos' },
};

/** 'Criar Nova Mensagem Automática': the rule is only added to the local list (SPEC §4). */
export function NewAutoMessageDialog({
  open,
  onOpenChange,
  replies,
  onCreate,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The manager's current list, for the repeated-keyword check. */
  replies: readonly ManagedReply[];
  onCreate: (reply: ManagedReply) => void;
}) {
  const [draft, setDraft] = useState<NewMessageDraft>(emptyNewMessage);
  const [button, setButton] = useState<ButtonDraft>(emptyButtonDraft);
  const [buttonError, setButtonError] = useState<string | null>(null);
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

  useEffect(() => {
    if (open) {
      setDraft(emptyNewMessage);
      setButton(emptyButtonDraft);
      setButtonError(null);
    }
  }, [open]);

  const set = <K extends keyof NewMessageDraft>(key: K, value: NewMessageDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const setButtonField = <K extends keyof ButtonDraft>(key: K, value: ButtonDraft[K]) => {
    setButton((b) => ({ ...b, [key]: value }));
    setButtonError(null);
  };

  const withButtons = draft.type !== 'text';
  const full = draft.buttons.length >= BOT_BUTTONS_MAX;
  const textMax = draft.type === 'image' ? BOT_CAPTION_MAX : BOT_TEXT_MAX;

  const addButton = () => {
    const result = checkNewButton(button, draft.buttons);
    if (!result.ok) {
      setButtonError(result.error);
      toastError(result.error);
      return;
    }
    set('buttons', [...draft.buttons, result.button]);
    setButton({ ...emptyButtonDraft, type: button.type });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = checkNewMessage(draft, replies);
    if (!result.ok) {
      toastError(result.error);
      return;
    }
    onCreate(result.reply);
  };

  const valueText = VALUE_LABELS[button.type];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Criar Nova Mensagem Automática</DialogTitle>
          <DialogDescription>
            Quando um cliente enviar a palavra-chave, o bot responde com esta mensagem. Ela só vale depois de Salvar
            Configurações.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-6">
          <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,16rem)]">
            <div className="grid content-start gap-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  label="Palavra-chave"
                  value={draft.trigger}
                  onChange={(e) => set('trigger', e.target.value)}
                  maxLength={BOT_TRIGGER_MAX}
                  autoComplete="off"
                  placeholder="oi"
                  hint="Sem diferença entre maiúsculas e acentos."
                />
                <div className="grid content-start gap-2">
                  <Label htmlFor={ids.type}>Tipo de mensagem</Label>
                  <NativeSelect
                    id={ids.type}
                    value={draft.type}
                    onChange={(e) => set('type', e.target.value as AutoReplyType)}
                  >
                    {autoReplyTypes.map((t) => (
                      <option key={t} value={t}>
                        {autoReplyTypeLabels[t]}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
              </div>

              <div className="grid gap-2">
                <Label htmlFor={ids.response}>{draft.type === 'image' ? 'Legenda da imagem' : 'Mensagem'}</Label>
                <Textarea
                  id={ids.response}
                  rows={4}
                  value={draft.response}
                  onChange={(e) => set('response', e.target.value)}
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
                  value={draft.imageUrl}
                  onChange={(e) => set('imageUrl', e.target.value)}
                  placeholder="https://www.suaempresa.com.br/imagem.jpg"
                  hint="Um endereço público que comece com https://."
                  autoComplete="off"
                />
              ) : null}

              {withButtons ? (
                <section aria-labelledby={ids.buttonsTitle} className="grid gap-3 rounded-lg border p-4">
                  <div className="flex items-baseline justify-between gap-2">
                    <h3 id={ids.buttonsTitle} className="text-sm font-semibold">
                      Botões
                    </h3>
                    <span className="text-xs text-muted-foreground tabular-nums">
                      {draft.buttons.length}/{BOT_BUTTONS_MAX}
                    </span>
                  </div>
                  {draft.buttons.length > 0 ? (
                    <ul className="grid gap-2">
                      {draft.buttons.map((b) => (
                        <li key={b.id} className="flex items-center gap-2 rounded-md bg-muted/60 px-3 py-2 text-sm">
                          <span className="min-w-0 flex-1">
                            <span className="block truncate font-medium">{b.text}</span>
                            <span className="block truncate text-xs text-muted-foreground">{buttonActionLabel(b)}</span>
                          </span>
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-8"
                            onClick={() =>
                              set(
                                'buttons',
                                draft.buttons.filter((x) => x.id !== b.id),
                              )
                            }
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
                            value={button.text}
                            maxLength={BOT_BUTTON_TEXT_MAX}
                            autoComplete="off"
                            placeholder="Ver produtos"
                            onChange={(e) => setButtonField('text', e.target.value)}
                          />
                        </div>
                        <div className="grid gap-2">
                          <Label htmlFor={ids.buttonType}>Ação do botão</Label>
                          <NativeSelect
                            id={ids.buttonType}
                            value={button.type}
                            onChange={(e) => setButtonField('type', e.target.value as BotButtonType)}
                          >
                            {botButtonTypes.map((t) => (
                              <option key={t} value={t}>
                                {botButtonTypeLabels[t]}
                              </option>
                            ))}
                          </NativeSelect>
                        </div>
                      </div>
                      <div className="grid gap-2">
                        <Label htmlFor={ids.buttonValue}>{valueText.label}</Label>
                        <Input
                          id={ids.buttonValue}
                          value={button.value}
                          type={button.type === 'url' ? 'url' : button.type === 'phone' ? 'tel' : 'text'}
                          autoComplete="off"
                          placeholder={valueText.placeholder}
                          aria-invalid={buttonError ? true : undefined}
                          aria-describedby={buttonError ? ids.buttonError : undefined}
                          onChange={(e) => setButtonField('value', e.target.value)}
                          onKeyDown={(e) => {
                            if (e.key === 'Enter') {
                              e.preventDefault();
                              addButton();
                            }
                          }}
                        />
                        <FieldError id={ids.buttonError} message={buttonError} />
                      </div>
                      <div>
                        <Button variant="outline" size="sm" onClick={addButton}>
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
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancelar
            </Button>
            <Button type="submit">
              <Plus aria-hidden />
              Adicionar Mensagem
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
