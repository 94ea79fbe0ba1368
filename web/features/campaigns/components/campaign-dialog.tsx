import { useEffect, useId, useRef, useState } from 'react';
import {
  CAMPAIGN_MESSAGE_MAX,
  CAMPAIGN_NAME_MAX,
  CAMPAIGN_VARIABLES,
  type Campaign,
  type CampaignTargetType,
  campaignMsg,
  campaignTargetTypes,
} from '#contract/campaigns';
import { VARIABLE_FALLBACK_HINT } from '#contract/personalize';
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
import { Label } from '#web/components/ui/label';
import { LabelledOptions, NativeSelect } from '#web/components/ui/select';
import { Spinner } from '#web/components/ui/spinner';
import { isApiError } from '#web/lib/api';
import { formatNumber } from '#web/lib/format';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useServerForm } from '#web/lib/use-server-form';
import { useCreateCampaign } from '../api/create-campaign';
import { useUpdateCampaign } from '../api/update-campaign';
import {
  type CampaignFormState,
  campaignBodyFromForm,
  campaignFormSchema,
  emptyCampaignForm,
  formFromCampaign,
} from '../campaign-form';
import { draftAttachments, TARGET_TYPE_LABELS, toDateTimeLocal } from '../campaign-view';
import { CampaignAudienceFields } from './campaign-audience-fields';
import { CampaignContentFields } from './campaign-content-fields';
import { CampaignExtrasFields } from './campaign-extras-fields';
import { CampaignNumbersField } from './campaign-numbers-field';
import { CampaignPreview } from './campaign-preview';
import { CampaignTemplateFields } from './campaign-template-fields';

/** The server's field names for the form's fields (it calls the groups `targetGroups`). */
const SERVER_FIELDS = {
  name: 'name',
  message: 'message',
  targetGroups: 'groups',
  scheduledAt: 'scheduledAt',
  connectionIds: 'connectionIds',
  mediaUrl: 'mediaUrl',
} as const;

const textareaClass =
  'flex min-h-36 w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-zinc-500 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40 aria-invalid:border-destructive sm:text-sm';

/**
 * 'Nova Campanha' (SPEC §2, §5, §8), also used to edit a draft or scheduled campaign: name, message
 * with variables and spintax, audience, optional schedule and image, and a live preview.
 */
export function CampaignDialog({
  open,
  campaign,
  onOpenChange,
}: {
  open: boolean;
  campaign: Campaign | null;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  // Checked on submit only; a field's message goes away when the field is edited (`set`).
  const editor = useServerForm(campaignFormSchema(), {
    defaultValues: emptyCampaignForm,
    reValidateMode: 'onSubmit',
    serverFields: SERVER_FIELDS,
  });
  const form = editor.watch();
  const fieldErrors = editor.formState.errors;
  const errors = {
    name: fieldErrors.name?.message,
    message: fieldErrors.message?.message,
    groups: fieldErrors.groups?.message,
    scheduledAt: fieldErrors.scheduledAt?.message,
    connectionIds: fieldErrors.connectionIds?.message,
    mediaUrl: fieldErrors.mediaUrl?.message,
    location: {
      latitude: fieldErrors.location?.latitude?.message,
      longitude: fieldErrors.location?.longitude?.message,
      name: fieldErrors.location?.name?.message,
      address: fieldErrors.location?.address?.message,
    },
    contactCard: {
      name: fieldErrors.contactCard?.name?.message,
      phone: fieldErrors.contactCard?.phone?.message,
    },
  };
  const [uploading, setUploading] = useState(false);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const ids = {
    message: useId(),
    messageHint: useId(),
    messageError: useId(),
    audience: useId(),
  };
  const editing = campaign !== null;
  const saving = create.isPending || update.isPending;
  const pending = saving || uploading;

  // Each opening starts from the campaign (or empty): only when `open` or the campaign (the
  // provider's state) changes, and `reset` is stable, so no render loop.
  const { reset } = editor;
  useEffect(() => {
    if (open) reset(formFromCampaign(campaign));
  }, [open, campaign, reset]);

  const set = <K extends keyof CampaignFormState>(key: K, value: CampaignFormState[K]) => {
    editor.setValue(key, value as never);
    // A field's message goes away as soon as the field is edited (only when there is one).
    if (editor.getFieldState(key).error) editor.clearErrors(key);
  };
  /** Several fields at once (a saved message, a template): their messages stay until edited by hand. */
  const patch = (values: Partial<CampaignFormState>) => {
    for (const [key, value] of Object.entries(values) as [keyof CampaignFormState, never][])
      editor.setValue(key, value);
  };

  /** Takes the attached file off (null: the request clears it when the campaign had one). */
  const dropFile = () => {
    if (editor.getValues('mediaUrl') === undefined) return;
    patch({ mediaUrl: null, mediaFile: null });
    editor.clearErrors('mediaUrl');
  };

  /** Puts a variable where the caret is and keeps typing from there. */
  const insertVariable = (token: string) => {
    const el = messageRef.current;
    const start = el?.selectionStart ?? form.message.length;
    const end = el?.selectionEnd ?? form.message.length;
    const next = `${form.message.slice(0, start)}${token}${form.message.slice(end)}`.slice(0, CAMPAIGN_MESSAGE_MAX);
    set('message', next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const close = () => {
    onOpenChange(false);
    reset(emptyCampaignForm);
  };

  /** The server's pt-BR message in the toast, and under the field it concerns when it names one. */
  const failed = (error: unknown, fallback: string) => {
    if (isApiError(error) && error.fieldErrors) editor.clearErrors();
    editor.failed(error, fallback);
  };

  const send = (values: CampaignFormState) => {
    const body = campaignBodyFromForm(values, campaign?.connectionIds);
    if (campaign) {
      update.mutate(
        { id: campaign.id, body },
        {
          onSuccess: () => {
            toastSuccess(campaignMsg.updated);
            close();
          },
          onError: (error) => failed(error, campaignMsg.updateError),
        },
      );
      return;
    }
    create.mutate(body, {
      onSuccess: () => {
        toastSuccess(campaignMsg.created);
        close();
      },
      onError: (error) => failed(error, campaignMsg.createError),
    });
  };
  const submit = editor.handleSubmit(send, (found) => {
    if (found.root?.message) toastError(found.root.message);
  });

  const messageDescribedBy = [ids.messageHint, errors.message ? ids.messageError : null].filter(Boolean).join(' ');

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Editar Campanha' : 'Nova Campanha'}</DialogTitle>
          <DialogDescription>
            Escreva a mensagem, escolha quem recebe e salve como rascunho ou agende o envio.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-6">
          <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,20rem)]">
            <div className="grid content-start gap-4">
              <FormField
                label="Nome da campanha"
                value={form.name}
                onChange={(e) => set('name', e.target.value)}
                error={errors.name}
                maxLength={CAMPAIGN_NAME_MAX}
                autoComplete="off"
                placeholder="Promoção de novembro"
              />

              <div className="grid gap-2">
                <Label htmlFor={ids.message}>Mensagem</Label>
                <textarea
                  id={ids.message}
                  ref={messageRef}
                  rows={6}
                  className={textareaClass}
                  value={form.message}
                  onChange={(e) => set('message', e.target.value)}
                  maxLength={CAMPAIGN_MESSAGE_MAX}
                  placeholder="{Olá|Oi} {{primeiro_nome}}! Temos uma novidade para você."
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={messageDescribedBy}
                />
                <p id={ids.messageHint} className="text-xs text-muted-foreground">
                  Personalize com {CAMPAIGN_VARIABLES.map((v) => `{{${v}}}`).join(', ')} e varie o texto com{' '}
                  {'{Olá|Oi}'}: cada contato recebe uma das opções. {VARIABLE_FALLBACK_HINT} Formate com *negrito*,
                  _itálico_ e ~tachado~.
                </p>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <fieldset className="flex flex-wrap gap-1">
                    <legend className="sr-only">Inserir variável na mensagem</legend>
                    {CAMPAIGN_VARIABLES.map((v) => (
                      <Button
                        key={v}
                        variant="outline"
                        size="sm"
                        className="h-7 px-2 font-mono text-xs"
                        onClick={() => insertVariable(`{{${v}}}`)}
                      >
                        {`{{${v}}}`}
                      </Button>
                    ))}
                  </fieldset>
                  <span className="text-xs text-muted-foreground tabular-nums">
                    {formatNumber(form.message.length)}/{formatNumber(CAMPAIGN_MESSAGE_MAX)}
                  </span>
                </div>
                <FieldError id={ids.messageError} message={errors.message} />
              </div>

              <div className="grid gap-2">
                <Label htmlFor={ids.audience}>Público-alvo</Label>
                <NativeSelect
                  id={ids.audience}
                  value={form.targetType}
                  onChange={(e) => set('targetType', e.target.value as CampaignTargetType)}
                >
                  <LabelledOptions values={campaignTargetTypes} labels={TARGET_TYPE_LABELS} />
                </NativeSelect>
              </div>

              <CampaignAudienceFields
                open={open}
                targetType={form.targetType}
                tags={form.tags}
                groups={form.groups}
                groupsError={errors.groups}
                onTagsChange={(tags) => set('tags', tags)}
                onGroupsChange={(names) => set('groups', names)}
              />

              <CampaignNumbersField
                active={open}
                value={form.connectionIds}
                error={errors.connectionIds}
                onChange={(ids) => set('connectionIds', ids)}
              />

              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  label="Agendar envio (opcional)"
                  type="datetime-local"
                  value={form.scheduledAt}
                  min={toDateTimeLocal(new Date().toISOString())}
                  onChange={(e) => set('scheduledAt', e.target.value)}
                  error={errors.scheduledAt}
                  hint="Em branco: fica como rascunho até você enviar."
                />
              </div>

              <CampaignContentFields
                active={open}
                imageUrl={form.imageUrl}
                onImageChange={(value) => {
                  set('imageUrl', value);
                  if (value.trim()) dropFile();
                }}
                onUseSaved={(message, imageUrl, media) => {
                  if (media) {
                    // The saved message's file (a PDF, an audio…) comes with its text, in place of an image.
                    patch({ message, imageUrl: '', mediaUrl: media.mediaUrl, mediaFile: media.file ?? null });
                    return;
                  }
                  patch({ message, imageUrl });
                  if (imageUrl) dropFile();
                }}
                onBusyChange={setUploading}
                mediaUrl={form.mediaUrl ?? ''}
                mediaFile={form.mediaFile ?? null}
                mediaError={errors.mediaUrl}
                onMediaChange={(media) => {
                  if (!media) return dropFile();
                  // One attachment: the file replaces the image.
                  patch({ mediaUrl: media.mediaUrl, mediaFile: media.file, imageUrl: '' });
                  editor.clearErrors('mediaUrl');
                }}
              />

              <CampaignExtrasFields
                location={form.location}
                contactCard={form.contactCard}
                locationErrors={errors.location}
                contactCardErrors={errors.contactCard}
                onLocationChange={(value) => {
                  editor.setValue('location', value);
                  editor.clearErrors('location');
                }}
                onContactCardChange={(value) => {
                  editor.setValue('contactCard', value);
                  editor.clearErrors('contactCard');
                }}
              />

              <CampaignTemplateFields form={form} active={open} onChange={patch} />
            </div>

            <CampaignPreview
              message={form.message}
              imageUrl={form.imageUrl}
              targetType={form.targetType}
              tags={form.tags}
              active={open}
              extras={draftAttachments(form)}
            />
          </div>

          <DialogFooter>
            <Button variant="outline" onClick={close}>
              Cancelar
            </Button>
            <Button type="submit" disabled={pending}>
              {saving ? <Spinner /> : null}
              {editing ? (saving ? 'Salvando...' : 'Salvar') : saving ? 'Criando...' : 'Criar Campanha'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
