import { useEffect, useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import {
  SAVED_MESSAGE_TITLE_MAX,
  type SavedMessage,
  type SavedMessageType,
  savedMessagesMsg,
} from '#contract/saved-messages';
import { BoxedSwitch } from '#web/components/boxed-switch';
import { FieldError } from '#web/components/field-error';
import { FileAttachmentField } from '#web/components/file-attachment-field';
import { FormField } from '#web/components/form-field';
import { ImageUploadField } from '#web/components/image-upload-field';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { Label } from '#web/components/ui/label';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group';
import { Spinner } from '#web/components/ui/spinner';
import { Switch } from '#web/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { Textarea } from '#web/components/ui/textarea';
import { toastSuccess } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useSaveSavedMessage } from '../api/save-saved-message';
import {
  bodyFromValues,
  type ComposeMessageOutput,
  type ComposeMessageValues,
  composeMessageForm,
  emptyComposeValues,
  type ImageSource,
  valuesFromMessage,
} from '../compose-form';

const RECIPIENT_TYPES: Array<{ value: SavedMessageType; label: string }> = [
  { value: 'contacts', label: 'Contatos' },
  { value: 'groups', label: 'Grupos' },
];

/** Form fields the server may name in its field errors. */
const SERVER_FIELDS = ['title', 'type', 'content', 'imageUrl', 'uploadId', 'mediaUrl'] as const;

/**
 * 'Compor Nova Mensagem' (SPEC §2, §4, §5, §8): title, recipient type, the message and image
 * switches, an image by link or by upload, and the content as text or HTML. With `message` it
 * edits that saved message instead.
 */
export function ComposeMessageDialog({
  open,
  onOpenChange,
  message = null,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  message?: SavedMessage | null;
}) {
  const save = useSaveSavedMessage();
  const [uploading, setUploading] = useState(false);
  const form = useServerForm<ComposeMessageValues, ComposeMessageOutput>(composeMessageForm, {
    defaultValues: emptyComposeValues,
    serverFields: SERVER_FIELDS,
  });
  const { errors } = form.formState;
  const ids = {
    type: useId(),
    typeError: useId(),
    content: useId(),
    contentHint: useId(),
    contentError: useId(),
    html: useId(),
  };
  const hasImage = form.watch('hasImage');
  const htmlMode = form.watch('htmlMode');
  const imageSource = form.watch('imageSource');
  const mediaUrl = form.watch('mediaUrl');
  const media = form.watch('media');
  const upload = {
    uploadId: form.watch('uploadId'),
    uploadUrl: form.watch('uploadUrl'),
    imageFile: form.watch('imageFile'),
  };

  useEffect(() => {
    if (open) form.reset(valuesFromMessage(message));
  }, [open, message, form]);

  const close = () => {
    onOpenChange(false);
    form.reset(emptyComposeValues);
  };

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { id: message?.id, input: bodyFromValues(values) },
      {
        onSuccess: () => {
          toastSuccess(savedMessagesMsg.saved);
          close();
        },
        onError: (error) =>
          form.failed(error, { title: savedMessagesMsg.saveErrorTitle, fallback: savedMessagesMsg.saveError }),
      },
    ),
  );

  const contentDescribedBy = [ids.contentHint, errors.content ? ids.contentError : null].filter(Boolean).join(' ');

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{message ? 'Editar Mensagem' : 'Compor Nova Mensagem'}</DialogTitle>
          <DialogDescription>Salve a mensagem para reutilizá-la nas campanhas, com ou sem imagem.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <FormField
            label="Título"
            maxLength={SAVED_MESSAGE_TITLE_MAX}
            autoComplete="off"
            placeholder="Promoção de fim de semana"
            {...formFieldProps(form, 'title')}
          />

          <div className="grid gap-2">
            <span id={ids.type} className="text-sm font-medium leading-none">
              Tipo de destinatário
            </span>
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <RadioGroup
                  aria-labelledby={ids.type}
                  aria-describedby={errors.type ? ids.typeError : undefined}
                  value={field.value}
                  onValueChange={(v) => field.onChange(v as SavedMessageType)}
                  className="flex flex-wrap gap-6"
                >
                  {RECIPIENT_TYPES.map((t) => (
                    <div key={t.value} className="flex items-center gap-2">
                      <RadioGroupItem value={t.value} id={`${ids.type}-${t.value}`} />
                      <Label htmlFor={`${ids.type}-${t.value}`} className="cursor-pointer font-normal">
                        {t.label}
                      </Label>
                    </div>
                  ))}
                </RadioGroup>
              )}
            />
            <FieldError id={ids.typeError} message={errors.type?.message} />
          </div>

          <div className="grid gap-3 sm:grid-cols-2">
            <BoxedSwitch control={form.control} name="enableMessage" label="Habilitar Mensagem" />
            <BoxedSwitch control={form.control} name="hasImage" label="Anexar Imagem" />
          </div>

          {hasImage ? (
            <Tabs
              value={imageSource}
              onValueChange={(v) => form.setValue('imageSource', v as ImageSource)}
              className="rounded-md border p-3"
            >
              <TabsList>
                <TabsTrigger value="url">Link da Imagem</TabsTrigger>
                <TabsTrigger value="upload">Upload de Arquivo</TabsTrigger>
              </TabsList>
              <TabsContent value="url">
                <FormField
                  label="URL da imagem"
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  placeholder="https://"
                  hint="Endereço público da imagem (http:// ou https://)."
                  {...formFieldProps(form, 'imageUrl')}
                />
              </TabsContent>
              <TabsContent value="upload">
                <ImageUploadField
                  value={upload}
                  error={errors.uploadId?.message}
                  onBusyChange={setUploading}
                  onUploaded={(u) => {
                    form.setValue('uploadId', u.id);
                    form.setValue('uploadUrl', u.url);
                    form.setValue('imageFile', u.fileName);
                    form.clearErrors('uploadId');
                  }}
                  onRemove={() => {
                    form.setValue('uploadId', null);
                    form.setValue('uploadUrl', null);
                    form.setValue('imageFile', '');
                  }}
                />
              </TabsContent>
            </Tabs>
          ) : (
            <div className="grid gap-2 rounded-md border p-3">
              <span className="text-sm font-medium leading-none">Ou anexe um arquivo (opcional)</span>
              <FileAttachmentField
                value={mediaUrl}
                file={media}
                error={errors.mediaUrl?.message}
                onBusyChange={setUploading}
                hint="Documento (PDF, DOC, XLS, PPT, TXT, CSV), áudio, vídeo ou imagem, enviado com a mensagem."
                onAttached={(u) => {
                  form.setValue('mediaUrl', `upload:${u.id}`, { shouldDirty: true });
                  form.setValue(
                    'media',
                    { kind: u.kind, mimeType: u.mimeType, fileName: u.fileName, size: u.size },
                    { shouldDirty: true },
                  );
                  form.clearErrors('mediaUrl');
                }}
                onRemove={() => {
                  form.setValue('mediaUrl', '', { shouldDirty: true });
                  form.setValue('media', null, { shouldDirty: true });
                }}
              />
            </div>
          )}

          <div className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <Label htmlFor={ids.content}>Conteúdo da mensagem</Label>
              <Controller
                control={form.control}
                name="htmlMode"
                render={({ field }) => (
                  <div className="flex items-center gap-2">
                    <Switch id={ids.html} checked={field.value} onCheckedChange={field.onChange} />
                    <Label htmlFor={ids.html} className="font-normal">
                      Modo HTML
                    </Label>
                  </div>
                )}
              />
            </div>
            <Textarea
              id={ids.content}
              className="min-h-[200px]"
              placeholder={
                htmlMode
                  ? 'Olá! <b>Oferta especial</b> só hoje.<br>Responda SAIR para não receber mais.'
                  : 'Olá! Oferta especial só hoje.'
              }
              aria-invalid={errors.content ? true : undefined}
              aria-describedby={contentDescribedBy}
              {...form.register('content')}
            />
            <p id={ids.contentHint} className="text-xs text-muted-foreground">
              {htmlMode
                ? savedMessagesMsg.htmlHint
                : 'Texto simples. Para formatar, use *negrito*, _itálico_ e ~tachado~ como no WhatsApp, ou ative o Modo HTML.'}
            </p>
            <FieldError id={ids.contentError} message={errors.content?.message} />
          </div>

          <DialogFooter>
            <Button variant="outline" onClick={close}>
              Cancelar
            </Button>
            <Button type="submit" disabled={save.isPending || uploading}>
              {save.isPending ? <Spinner /> : null}
              {save.isPending ? 'Salvando...' : 'Salvar Mensagem'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
