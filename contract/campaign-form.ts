import { z } from 'zod';
import { type CampaignVariable, campaignMedia, campaignMsg, campaignTargetTypes } from './campaigns';
import { contactCardInput, locationInput } from './message-content';
import { unknownVariable } from './personalize';

/** The campaign form's own texts (the server's are in `campaignMsg`). */
export const campaignFormMsg = {
  numbersRequired: 'Escolha ao menos um número ou use o número padrão.',
} as const;

/** One template variable as the campaign form edits it: a contact field, or a fixed text. */
export type TemplateVariableDraft = { field: CampaignVariable } | { text: string };

/** The form's location, as typed (a decimal comma is read as a point). */
export const locationDraft = z.object({
  latitude: z.string(),
  longitude: z.string(),
  name: z.string(),
  address: z.string(),
});
export type LocationDraft = z.infer<typeof locationDraft>;

/** The form's contact card, as typed. */
export const contactCardDraft = z.object({ name: z.string(), phone: z.string() });
export type ContactCardDraft = z.infer<typeof contactCardDraft>;

/** The location the request sends for the form's: numbers, and the name and address only when given. */
export function locationFromDraft(d: LocationDraft): {
  latitude: unknown;
  longitude: unknown;
  name?: string;
  address?: string;
} {
  const coordinate = (v: string) => {
    const t = v.trim().replace(',', '.');
    // Empty is not 0: the schema's coercion would read it as the equator.
    return t === '' ? undefined : Number(t);
  };
  const name = d.name.trim();
  const address = d.address.trim();
  return {
    latitude: coordinate(d.latitude),
    longitude: coordinate(d.longitude),
    ...(name ? { name } : {}),
    ...(address ? { address } : {}),
  };
}

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
  /**
   * 'Anexar arquivo': `upload:<id>` (or the link the campaign was saved with). Absent: none and none
   * to remove; null: removed (the request clears it); `mediaFile` is what the form shows of it.
   */
  mediaUrl: z.string().nullable().optional(),
  mediaFile: campaignMedia.partial().nullable().optional(),
  /** 'Localização' and 'Cartão de contato': absent for none, null once removed. */
  location: locationDraft.nullable().optional(),
  contactCard: contactCardDraft.nullable().optional(),
});
export type CampaignFormDraft = z.infer<typeof campaignFormDraft>;

/**
 * The checks the browser makes before calling the server (SPEC §5 and the contract's texts): name
 * and message first (each under its field), then an unknown variable, groups without a choice, a
 * schedule that is not in the future, 'Escolher números' with no number, and a location or a contact
 * card the server would refuse (its own schemas, under `location.latitude` and the like). A file, a
 * location or a contact card may go without a message. The 'root' error is the
 * message to show as a toast, the first problem found. The schedule is a local date-time: `instantOf` (the browser's) reads it as an ISO
 * instant (null when invalid), compared with `now()` when the form is checked.
 */
export function campaignForm(instantOf: (local: string) => string | null, now: () => number = Date.now) {
  return campaignFormDraft.superRefine((f, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    const noName = !f.name.trim();
    // A file, a location or a contact card may go without text (the server's rule).
    const noMessage = !f.message.trim() && !f.mediaUrl && !f.location && !f.contactCard;
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
    const extras: string[] = [];
    const nested = (schema: z.ZodType, value: unknown, field: 'location' | 'contactCard') => {
      const parsed = schema.safeParse(value);
      if (parsed.success) return;
      for (const i of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: i.message, path: [field, ...i.path.map(String)] });
        extras.push(i.message);
      }
    };
    if (f.location) nested(locationInput, locationFromDraft(f.location), 'location');
    if (f.contactCard) nested(contactCardInput, f.contactCard, 'contactCard');
    if (message) issue('message', message);
    if (groups) issue('groups', groups);
    if (scheduledAt) issue('scheduledAt', scheduledAt);
    if (numbers) issue('connectionIds', numbers);
    const first = message ?? groups ?? scheduledAt ?? numbers ?? extras[0] ?? null;
    if (first) issue('root', first);
  });
}
