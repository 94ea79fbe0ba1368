import { z } from 'zod';
import { type CampaignVariable, campaignMsg, campaignTargetTypes } from './campaigns';
import { unknownVariable } from './personalize';

/** The campaign form's own texts (the server's are in `campaignMsg`). */
export const campaignFormMsg = {
  numbersRequired: 'Escolha ao menos um número ou use o número padrão.',
} as const;

/** One template variable as the campaign form edits it: a contact field, or a fixed text. */
export type TemplateVariableDraft = { field: CampaignVariable } | { text: string };

/** What the 'Nova Campanha' dialog edits; strings as typed. */
export const campaignFormDraft = z.object({
  name: z.string(),
  message: z.string(),
  targetType: z.enum(campaignTargetTypes),
  /** Comma-separated, for the contacts audience. */
  tags: z.string(),
  groups: z.array(z.string()),
  /** `<input type="datetime-local">` value; empty means no schedule (a draft). */
  scheduledAt: z.string(),
  imageUrl: z.string(),
  /** Cloud API: an approved template ('' for none) and how each of its {{n}} is filled (checked by the server). */
  templateName: z.string(),
  templateLanguage: z.string(),
  templateVariables: z.array(z.custom<TemplateVariableDraft>(() => true)),
  /**
   * The numbers that send it: absent for the account's default number ('Número padrão'), the
   * chosen `/api/connections` ids otherwise ('Escolher números', at least one).
   */
  connectionIds: z.array(z.string()).optional(),
});
export type CampaignFormDraft = z.infer<typeof campaignFormDraft>;

/**
 * The checks the browser makes before calling the server (SPEC §5 and the contract's texts): name
 * and message first (each under its field), then an unknown variable, groups without a choice, a
 * schedule that is not in the future and 'Escolher números' with no number. The 'root' error is the
 * message to show as a toast, the first problem found. The schedule is a local date-time: `instantOf` (the browser's) reads it as an ISO
 * instant (null when invalid), compared with `now()` when the form is checked.
 */
export function campaignForm(instantOf: (local: string) => string | null, now: () => number = Date.now) {
  return campaignFormDraft.superRefine((f, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    const noName = !f.name.trim();
    const noMessage = !f.message.trim();
    if (noName || noMessage) {
      if (noName) issue('name', campaignMsg.required);
      if (noMessage) issue('message', campaignMsg.required);
      issue('root', campaignMsg.required);
      return;
    }
    const unknown = unknownVariable(f.message);
    const message = unknown ? campaignMsg.unknownVariable(unknown) : null;
    const groups = f.targetType === 'groups' && f.groups.length === 0 ? campaignMsg.groupsRequired : null;
    let scheduledAt: string | null = null;
    if (f.scheduledAt.trim()) {
      const at = instantOf(f.scheduledAt);
      if (!at) scheduledAt = campaignMsg.scheduleRequired;
      else if (Date.parse(at) <= now()) scheduledAt = campaignMsg.scheduledInPast;
    }
    const numbers = f.connectionIds?.length === 0 ? campaignFormMsg.numbersRequired : null;
    if (message) issue('message', message);
    if (groups) issue('groups', groups);
    if (scheduledAt) issue('scheduledAt', scheduledAt);
    if (numbers) issue('connectionIds', numbers);
    const first = message ?? groups ?? scheduledAt ?? numbers;
    if (first) issue('root', first);
  });
}
