import { useEffect, useId } from 'react';
import { CAMPAIGN_VARIABLES, campaignMsg } from '#contract/campaigns';
import { unknownVariable, VARIABLE_FALLBACK_HINT } from '#contract/personalize';
import {
  QUICK_REPLY_SHORTCUT_MAX,
  QUICK_REPLY_TEXT_MAX,
  type QuickReply,
  type QuickReplyInput,
  quickReplyInput,
} from '#contract/quick-replies';
import { FieldError } from '#web/components/field-error';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
import { Label } from '#web/components/ui/label';
import { Textarea } from '#web/components/ui/textarea';
import { toastOutcome } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useSaveQuickReply } from '../api/save-quick-reply';

const SAVE_ERROR = 'Não foi possível salvar a resposta rápida. Tente novamente.';

/** The variables a reply may use, as the hint lists them: {{nome}}, {{primeiro_nome}}… */
const VARIABLES = CAMPAIGN_VARIABLES.map((v) => `{{${v}}}`);

function formValues(reply: QuickReply | null) {
  return { shortcut: reply?.shortcut ?? '', text: reply?.text ?? '' };
}

/**
 * 'Nova resposta rápida' / 'Editar resposta rápida': the shortcut (typed with or without the slash)
 * and the text, validated by the contract's `quickReplyInput`; the server's field messages (a
 * shortcut already taken) go under the fields.
 */
export function QuickReplyDialog({
  open,
  reply,
  onOpenChange,
}: {
  open: boolean;
  reply: QuickReply | null;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveQuickReply();
  const form = useServerForm<QuickReplyInput, QuickReplyInput>(quickReplyInput, {
    defaultValues: formValues(null),
    serverFields: ['shortcut', 'text'],
  });
  const { errors } = form.formState;
  const ids = { text: useId(), hint: useId(), warning: useId(), error: useId() };
  const unknown = unknownVariable(form.watch('text') ?? '');

  useEffect(() => {
    if (open) form.reset(formValues(reply));
  }, [open, reply, form]);

  const submit = form.handleSubmit((input) =>
    save.mutate(
      { id: reply?.id, input },
      toastOutcome(
        () => onOpenChange(false),
        (error) => form.failed(error, SAVE_ERROR),
      ),
    ),
  );

  const describedBy = [ids.hint, unknown ? ids.warning : null, errors.text ? ids.error : null]
    .filter(Boolean)
    .join(' ');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={reply ? 'Editar resposta rápida' : 'Nova resposta rápida'}
      description="Na conversa, digite / e o atalho para usar o texto."
      onSubmit={submit}
      pending={save.isPending}
      submitLabel={reply ? 'Salvar Alterações' : 'Criar Resposta'}
      pendingLabel="Salvando..."
    >
      <FormField
        label="Atalho"
        placeholder="boas-vindas"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={QUICK_REPLY_SHORTCUT_MAX + 1}
        hint={`Até ${QUICK_REPLY_SHORTCUT_MAX} letras, números, hífen ou sublinhado, sem espaços. Na conversa: /atalho.`}
        {...formFieldProps(form, 'shortcut')}
      />
      <div className="grid gap-2">
        <Label htmlFor={ids.text}>Texto</Label>
        <Textarea
          id={ids.text}
          className="min-h-[140px]"
          maxLength={QUICK_REPLY_TEXT_MAX}
          placeholder="Olá, {{primeiro_nome|cliente}}! Como posso ajudar?"
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={describedBy}
          {...form.register('text')}
        />
        <p id={ids.hint} className="text-xs text-muted-foreground">
          Personalize com {VARIABLES.join(', ')}: são preenchidas com os dados do contato da conversa.{' '}
          {VARIABLE_FALLBACK_HINT}
        </p>
        {unknown ? (
          <p id={ids.warning} className="text-xs font-medium text-amber-900">
            {campaignMsg.unknownVariable(unknown)}
          </p>
        ) : null}
        <FieldError id={ids.error} message={errors.text?.message} />
      </div>
    </FormDialog>
  );
}
