import { type CampaignFormDraft, campaignForm, type TemplateVariableDraft } from '#contract/campaign-form';
import type { Campaign, CreateCampaignBody } from '#contract/campaigns';
import { parseTags } from '#contract/contacts';
import { fromDateTimeLocal, toDateTimeLocal } from './campaign-view';

/** What the 'Nova Campanha' dialog edits; its checks are the contract's `campaignForm`. */
export type CampaignFormState = CampaignFormDraft;

/** One template variable as the form edits it: a contact field, or a fixed text. */
export type TemplateVariableInput = TemplateVariableDraft;

export const emptyCampaignForm: CampaignFormState = {
  name: '',
  message: '',
  targetType: 'all',
  tags: '',
  groups: [],
  scheduledAt: '',
  imageUrl: '',
  templateName: '',
  templateLanguage: '',
  templateVariables: [],
};

export function formFromCampaign(c: Campaign | null): CampaignFormState {
  if (!c) return emptyCampaignForm;
  return {
    name: c.name,
    message: c.message,
    targetType: c.targetType,
    tags: (c.targetTags ?? []).join(', '),
    groups: [...c.targetGroups],
    scheduledAt: c.status === 'scheduled' ? toDateTimeLocal(c.scheduledAt) : '',
    imageUrl: c.imageUrl ?? '',
    templateName: c.templateName ?? '',
    templateLanguage: c.templateLanguage ?? '',
    templateVariables: (c.templateVariables ?? []) as TemplateVariableInput[],
    // Absent: the default number ('Número padrão'), as the campaign was saved.
    ...(c.connectionIds && c.connectionIds.length > 0 ? { connectionIds: [...c.connectionIds] } : {}),
  };
}

/** The campaign form's checks, with the schedule read as the browser's local time. */
export const campaignFormSchema = (now?: () => number) => campaignForm(fromDateTimeLocal, now);

/**
 * The request body, the same for create and update: every field is sent so that clearing one
 * (the schedule, the tags, the image) clears it on the server too. The numbers are the exception:
 * 'Número padrão' sends none (the body of a campaign before several numbers existed), or an empty
 * list when the campaign being edited was saved with chosen numbers (`savedConnectionIds`).
 */
export function campaignBodyFromForm(
  form: CampaignFormState,
  savedConnectionIds: readonly string[] = [],
): CreateCampaignBody & { status: 'draft' | 'scheduled' } {
  const scheduledAt = form.scheduledAt.trim() ? fromDateTimeLocal(form.scheduledAt) : null;
  const imageUrl = form.imageUrl.trim();
  return {
    name: form.name.trim(),
    message: form.message.trim(),
    targetType: form.targetType,
    targetGroups: form.targetType === 'groups' ? form.groups : [],
    targetTags: form.targetType === 'contacts' ? parseTags(form.tags) : [],
    status: scheduledAt ? 'scheduled' : 'draft',
    scheduledAt,
    imageUrl: imageUrl || null,
    templateName: form.templateName || null,
    templateLanguage: form.templateName ? form.templateLanguage || 'pt_BR' : null,
    templateVariables: form.templateName ? form.templateVariables : [],
    ...(form.connectionIds && form.connectionIds.length > 0
      ? { connectionIds: form.connectionIds }
      : savedConnectionIds.length > 0
        ? { connectionIds: [] }
        : {}),
  };
}
