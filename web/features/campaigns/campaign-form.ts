import {
  type CampaignFormDraft,
  campaignForm,
  type LocationDraft,
  locationFromDraft,
  type TemplateVariableDraft,
} from '#contract/campaign-form';
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
    ...(c.mediaUrl ? { mediaUrl: c.mediaUrl, mediaFile: c.media ?? null } : {}),
    ...(c.location ? { location: locationDraftOf(c.location) } : {}),
    ...(c.contactCard ? { contactCard: { name: c.contactCard.name, phone: c.contactCard.phone ?? '' } } : {}),
    // Absent: the default number ('Número padrão'), as the campaign was saved.
    ...(c.connectionIds && c.connectionIds.length > 0 ? { connectionIds: [...c.connectionIds] } : {}),
  };
}

/** A saved location as the form's fields. */
function locationDraftOf(l: NonNullable<Campaign['location']>): LocationDraft {
  return { latitude: String(l.latitude), longitude: String(l.longitude), name: l.name ?? '', address: l.address ?? '' };
}

/** An empty 'Localização' or 'Cartão de contato' section, as 'Adicionar' opens it. */
export const emptyLocation: LocationDraft = { latitude: '', longitude: '', name: '', address: '' };
export const emptyContactCard = { name: '', phone: '' };

/** The campaign form's checks, with the schedule read as the browser's local time. */
export const campaignFormSchema = (now?: () => number) => campaignForm(fromDateTimeLocal, now);

/**
 * The request body, the same for create and update: every field is sent so that clearing one
 * (the schedule, the tags, the image) clears it on the server too. The numbers are the exception:
 * 'Número padrão' sends none (the body of a campaign before several numbers existed), or an empty
 * list when the campaign being edited was saved with chosen numbers (`savedConnectionIds`). The
 * file, the location and the contact card go when the form has them, null once removed, and not
 * at all when it never had them (what a campaign without them was always sent as). A file is the
 * one attachment: it goes instead of the image.
 */
export function campaignBodyFromForm(
  form: CampaignFormState,
  savedConnectionIds: readonly string[] = [],
): CreateCampaignBody & { status: 'draft' | 'scheduled' } {
  const scheduledAt = form.scheduledAt.trim() ? fromDateTimeLocal(form.scheduledAt) : null;
  const mediaUrl = form.mediaUrl?.trim();
  const imageUrl = mediaUrl ? '' : form.imageUrl.trim();
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
    ...(form.mediaUrl !== undefined ? { mediaUrl: mediaUrl || null } : {}),
    ...(form.location !== undefined
      ? { location: form.location ? (locationFromDraft(form.location) as LocationBody) : null }
      : {}),
    ...(form.contactCard !== undefined
      ? {
          contactCard: form.contactCard
            ? { name: form.contactCard.name.trim(), phone: form.contactCard.phone.trim() }
            : null,
        }
      : {}),
  };
}

type LocationBody = NonNullable<CreateCampaignBody['location']>;
