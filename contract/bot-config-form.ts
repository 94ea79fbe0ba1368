import { z } from 'zod';
import {
  type AutoReply,
  type AutoReplyInput,
  type BotConfig,
  type BotConfigInput,
  botConfigInput,
  botMsg,
  DEFAULT_AI_MODEL,
  weekdays,
} from './bot';

/** One keyword + response row of 'Configurar Chatbot'; `ruleId` ties it to a stored rule, null for a new row. */
export const botReplyRowDraft = z.object({
  ruleId: z.string().nullable(),
  keyword: z.string(),
  response: z.string(),
});
export type BotReplyRowDraft = z.infer<typeof botReplyRowDraft>;

/** What the 'Configurar Chatbot' dialog edits; strings as typed. */
export const botConfigFormDraft = z.object({
  isEnabled: z.boolean(),
  welcomeMessage: z.string(),
  replies: z.array(botReplyRowDraft),
  aiEnabled: z.boolean(),
  aiModel: z.string(),
  businessHours: z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(weekdays)) }),
  outOfHoursMessage: z.string(),
  aiInstructions: z.string(),
  /** `<input type="number">` value; empty keeps the stored value. */
  handoffMinutes: z.string(),
});
export type BotConfigFormDraft = z.infer<typeof botConfigFormDraft>;

/** The fields outside the reply rows that show a message of their own (the rest only in the toast). */
export const botConfigFormFields = [
  'welcomeMessage',
  'aiModel',
  'businessHours',
  'outOfHoursMessage',
  'aiInstructions',
  'handoffMinutes',
] as const;
export type BotConfigFormField = (typeof botConfigFormFields)[number];
const isFormField = (name: unknown): name is BotConfigFormField =>
  (botConfigFormFields as readonly unknown[]).includes(name);

/** A new, empty row. */
export const emptyBotReplyRow = (): BotReplyRowDraft => ({ ruleId: null, keyword: '', response: '' });

/** The stored config as the dialog opens on it. */
export function botConfigFormFromConfig(config: BotConfig): BotConfigFormDraft {
  return {
    isEnabled: config.isEnabled,
    welcomeMessage: config.welcomeMessage,
    replies: config.autoReplies.map((r) => ({ ruleId: r.id, keyword: r.keyword || r.trigger, response: r.response })),
    aiEnabled: config.aiEnabled,
    aiModel: config.aiModel || DEFAULT_AI_MODEL,
    businessHours: {
      start: config.businessHours.start,
      end: config.businessHours.end,
      days: [...config.businessHours.days],
    },
    outOfHoursMessage: config.outOfHoursMessage,
    aiInstructions: config.aiInstructions,
    handoffMinutes: String(config.handoffMinutes),
  };
}

/**
 * The dialog's rows as rules to save. The dialog edits only keyword and response: a row that is
 * still a stored rule (same id) keeps that rule's type, buttons, image and active flag, so saving
 * here never undoes what the manager set; a new row is a plain, active text rule. Rows left
 * completely blank are dropped. `rows[i]` is the index of the row behind `replies[i]`.
 */
export function mergeReplyRows(
  rows: readonly BotReplyRowDraft[],
  existing: readonly AutoReply[],
): { replies: AutoReplyInput[]; rows: number[] } {
  const byId = new Map(existing.map((r) => [r.id, r]));
  const replies: AutoReplyInput[] = [];
  const indexes: number[] = [];
  for (const [index, row] of rows.entries()) {
    if (!row.keyword.trim() && !row.response.trim()) continue;
    const stored = row.ruleId ? byId.get(row.ruleId) : undefined;
    replies.push(
      stored
        ? {
            id: stored.id,
            trigger: row.keyword,
            response: row.response,
            type: stored.type,
            buttons: stored.buttons.map((b) => ({ ...b })),
            imageUrl: stored.imageUrl,
            // What the simple rows do not show stays as stored: a file, a place, a card, a queue.
            ...(stored.mediaUrl ? { mediaUrl: stored.mediaUrl } : {}),
            ...(stored.location ? { location: { ...stored.location } } : {}),
            ...(stored.contactCard ? { contactCard: { ...stored.contactCard } } : {}),
            ...(stored.queueId ? { queueId: stored.queueId } : {}),
            isActive: stored.isActive,
          }
        : { trigger: row.keyword, response: row.response, type: 'text', buttons: [], imageUrl: '', isActive: true },
    );
    indexes.push(index);
  }
  return { replies, rows: indexes };
}

/** What the form compares against: the stored rules, and whether AI was on and can run here. */
export type StoredBotConfig = Pick<BotConfig, 'autoReplies' | 'aiEnabled' | 'aiAvailable'>;

/**
 * Whether to send `aiEnabled`. The server refuses to switch AI on where it is unavailable; a config
 * that already has it on (the key was removed later) is left as stored, so the rest can still be saved.
 */
export function sendsAiEnabled(aiEnabled: boolean, stored: Pick<BotConfig, 'aiEnabled' | 'aiAvailable'>): boolean {
  return stored.aiAvailable || !aiEnabled || !stored.aiEnabled;
}

/** The whole config as POST /api/bot-config takes it; `rows` as in `mergeReplyRows`. */
export function botConfigBodyFromForm(
  form: BotConfigFormDraft,
  stored: StoredBotConfig,
): { body: BotConfigInput; rows: number[] } {
  const { replies, rows } = mergeReplyRows(form.replies, stored.autoReplies);
  const handoff = form.handoffMinutes.trim();
  const body: BotConfigInput = {
    isEnabled: form.isEnabled,
    welcomeMessage: form.welcomeMessage,
    autoReplies: replies,
    ...(sendsAiEnabled(form.aiEnabled, stored) ? { aiEnabled: form.aiEnabled } : {}),
    aiModel: form.aiModel.trim() || DEFAULT_AI_MODEL,
    businessHours: {
      start: form.businessHours.start,
      end: form.businessHours.end,
      days: form.businessHours.days,
    },
    outOfHoursMessage: form.outOfHoursMessage,
    aiInstructions: form.aiInstructions,
    ...(handoff ? { handoffMinutes: Number(handoff) } : {}),
  };
  return { body, rows };
}

/**
 * The 'Configurar Chatbot' form, given the stored config: `botConfigInput`'s own checks, run in the
 * browser so each message lands next to what it concerns. A rule's message goes on its row
 * (`replies.<i>`), any business-hours message on `businessHours`, the other fields' on the field of
 * the same name; one message per place, the first. The 'root' error is the first message of all,
 * for the toast. Gives the body to POST.
 */
export function botConfigForm(stored: StoredBotConfig) {
  return botConfigFormDraft.transform((form, ctx): BotConfigInput => {
    const { body, rows } = botConfigBodyFromForm(form, stored);
    const parsed = botConfigInput.safeParse(body);
    if (parsed.success) return body;
    const placed = new Set<string>();
    const issue = (path: (string | number)[], message: string) => {
      const at = path.join('.');
      if (placed.has(at)) return;
      placed.add(at);
      ctx.addIssue({ code: 'custom', message, path });
    };
    for (const { path, message } of parsed.error.issues) {
      const [head, index] = path;
      if (head === 'autoReplies') {
        const row = typeof index === 'number' ? rows[index] : undefined;
        if (row !== undefined) issue(['replies', row], message);
      } else if (isFormField(head)) issue([head], message);
    }
    issue(['root'], parsed.error.issues[0]?.message ?? botMsg.saveError);
    return z.NEVER;
  });
}
