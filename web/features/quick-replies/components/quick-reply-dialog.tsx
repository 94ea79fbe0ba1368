import { X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { CAMPAIGN_VARIABLES, campaignMsg } from '#contract/campaigns';
import { unknownVariable, VARIABLE_FALLBACK_HINT } from '#contract/personalize';
import {
  QUICK_REPLY_SHORTCUT_MAX,
  QUICK_REPLY_TEXT_MAX,
  type QuickReply,
  type QuickReplyInput,
  quickReplyInput,
} from '#contract/quick-replies';
import type { Upload } from '#contract/uploads';
import { FieldError } from '#web/components/field-error';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { Textarea } from '#web/components/ui/textarea';
import { formatFileSize } from '#web/lib/format';
import { toastError, toastOutcome } from '#web/lib/toasts';
import { uploadFile } from '#web/lib/upload-image';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useSaveQuickReply } from '../api/save-quick-reply';

const SAVE_ERROR = 'Não foi possível salvar a resposta rápida. Tente novamente.';

/** The variables a reply may use, as the hint lists them: {{nome}}, {{primeiro_nome}}… */
const VARIABLES = CAMPAIGN_VARIABLES.map((v) => `{{${v}}}`);

function formValues(reply: QuickReply | null): QuickReplyInput {
  return { shortcut: reply?.shortcut ?? '', text: reply?.text ?? '', mediaUrl: reply?.mediaUrl ?? null };
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
    serverFields: ['shortcut', 'text', 'mediaUrl'],
  });
  const { errors } = form.formState;
  const ids = { text: useId(), hint: useId(), warning: useId(), error: useId(), file: useId(), fileError: useId() };
  const unknown = unknownVariable(form.watch('text') ?? '');
  // The file that goes with the text: the reply's own, or one sent from here.
  const [file, setFileState] = useState<Upload | null>(null);
  const [uploading, setUploading] = useState(false);
  const setFile = (upload: Upload | null) => {
    setFileState(upload);
    form.setValue('mediaUrl', upload ? `upload:${upload.id}` : null);
  };
  const pickFile = async (picked: File | undefined) => {
    if (!picked) return;
    setUploading(true);
    try {
      setFile(await uploadFile(picked));
    } catch (err) {
      toastError(err, 'Não foi possível enviar o arquivo. Tente novamente.');
    } finally {
      setUploading(false);
    }
  };

  useEffect(() => {
    if (open) {
      form.reset(formValues(reply));
      setFileState(reply?.media ?? null);
    }
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
      <div className="grid gap-2">
        <Label htmlFor={ids.file}>Arquivo (opcional)</Label>
        {file ? (
          <div
            className="flex min-w-0 items-center gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm"
            data-testid="quick-reply-file"
          >
            <span className="min-w-0 flex-1 truncate">{file.fileName}</span>
            <span className="shrink-0 text-xs text-muted-foreground">{formatFileSize(file.size)}</span>
            <Button
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Remover arquivo ${file.fileName}`}
              onClick={() => setFile(null)}
            >
              <X aria-hidden />
            </Button>
          </div>
        ) : (
          <Input
            id={ids.file}
            type="file"
            disabled={uploading}
            aria-invalid={errors.mediaUrl ? true : undefined}
            aria-describedby={errors.mediaUrl ? ids.fileError : undefined}
            onChange={(e) => void pickFile(e.target.files?.[0])}
          />
        )}
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {uploading ? 'Enviando arquivo...' : 'Uma imagem, um PDF, um áudio ou um vídeo vai junto com o texto.'}
        </p>
        <FieldError id={ids.fileError} message={errors.mediaUrl?.message} />
      </div>
    </FormDialog>
  );
}
