import {
  type Campaign,
  type CampaignTargetType,
  type CampaignVariable,
  type CreateCampaignBody,
  campaignMsg,
} from '../../../contract/campaigns';
import { parseTags } from '../../../contract/contacts';
import { unknownVariable } from '../../../contract/personalize';
import { fromDateTimeLocal, toDateTimeLocal } from './campaign-view';

/** What the 'Nova Campanha' dialog edits; strings as typed. */
export interface CampaignFormState {
  name: string;
  message: string;
  targetType: CampaignTargetType;
  /** Comma-separated, for the contacts audience. */
  tags: string;
  groups: string[];
  /** `<input type="datetime-local">` value; empty means no schedule (a draft). */
  scheduledAt: string;
  imageUrl: string;
  /** Cloud API: an approved template ('' for none) and how each of its {{n}} is filled. */
  templateName: string;
  templateLanguage: string;
  templateVariables: TemplateVariableInput[];
}

/** One template variable as the form edits it: a contact field, or a fixed text. */
export type TemplateVariableInput = { field: CampaignVariable } | { text: string };

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
  };
}

export type CampaignFormErrors = Partial<Record<'name' | 'message' | 'groups' | 'scheduledAt', string>>;

/**
 * The checks the browser can make before calling the server (SPEC §5 and the contract's texts).
 * `toast` is the message to show, the first problem found; null when the form can be sent.
 */
export function validateCampaignForm(
  form: CampaignFormState,
  now: number = Date.now(),
): { errors: CampaignFormErrors; toast: string | null } {
  const errors: CampaignFormErrors = {};
  if (!form.name.trim()) errors.name = campaignMsg.required;
  if (!form.message.trim()) errors.message = campaignMsg.required;
  if (errors.name || errors.message) return { errors, toast: campaignMsg.required };

  const unknown = unknownVariable(form.message);
  if (unknown) errors.message = campaignMsg.unknownVariable(unknown);
  if (form.targetType === 'groups' && form.groups.length === 0) errors.groups = campaignMsg.groupsRequired;
  if (form.scheduledAt.trim()) {
    const at = fromDateTimeLocal(form.scheduledAt);
    if (!at) errors.scheduledAt = campaignMsg.scheduleRequired;
    else if (Date.parse(at) <= now) errors.scheduledAt = campaignMsg.scheduledInPast;
  }
  const first = errors.message ?? errors.groups ?? errors.scheduledAt ?? null;
  return { errors, toast: first };
}

/**
 * The request body, the same for create and update: every field is sent so that clearing one
 * (the schedule, the tags, the image) clears it on the server too.
 */
export function campaignBodyFromForm(form: CampaignFormState): CreateCampaignBody & { status: 'draft' | 'scheduled' } {
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
  };
}
