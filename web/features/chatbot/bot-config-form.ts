import { roleOf, type User } from '../../../contract/auth';
import {
  type AutoReply,
  type AutoReplyInput,
  aiUnavailableFor,
  type BotConfig,
  type BotConfigInput,
  botConfigInput,
  DEFAULT_AI_MODEL,
  type Weekday,
  weekdays,
} from '../../../contract/bot';

/** One keyword + response row of 'Configurar Chatbot'; `id` ties it to a stored rule, null for a new row. */
export interface ReplyRow {
  key: string;
  id: string | null;
  keyword: string;
  response: string;
}

/** What 'Configurar Chatbot' edits; strings as typed. */
export interface BotConfigFormState {
  isEnabled: boolean;
  welcomeMessage: string;
  replies: ReplyRow[];
  aiEnabled: boolean;
  aiModel: string;
  businessStart: string;
  businessEnd: string;
  businessDays: Weekday[];
  outOfHoursMessage: string;
  aiInstructions: string;
  /** `<input type="number">` value; empty keeps the stored value. */
  handoffMinutes: string;
}

let rowSequence = 0;

/** A key for a row that exists only in the browser (no crypto.randomUUID: it needs a secure context). */
export function newRowKey(prefix = 'row'): string {
  rowSequence += 1;
  return `${prefix}-${rowSequence}`;
}

export function emptyReplyRow(): ReplyRow {
  return { key: newRowKey(), id: null, keyword: '', response: '' };
}

export function formFromConfig(config: BotConfig): BotConfigFormState {
  return {
    isEnabled: config.isEnabled,
    welcomeMessage: config.welcomeMessage,
    replies: config.autoReplies.map((r) => ({
      key: `saved-${r.id}`,
      id: r.id,
      keyword: r.keyword || r.trigger,
      response: r.response,
    })),
    aiEnabled: config.aiEnabled,
    aiModel: config.aiModel || DEFAULT_AI_MODEL,
    businessStart: config.businessHours.start,
    businessEnd: config.businessHours.end,
    businessDays: [...config.businessHours.days],
    outOfHoursMessage: config.outOfHoursMessage,
    aiInstructions: config.aiInstructions,
    handoffMinutes: String(config.handoffMinutes),
  };
}

/** Days in week order, with `day` switched on or off. */
export function toggleDay(days: readonly Weekday[], day: Weekday): Weekday[] {
  const next = days.includes(day) ? days.filter((d) => d !== day) : [...days, day];
  return weekdays.filter((d) => next.includes(d));
}

/**
 * The dialog's rows as rules to save. The dialog edits only keyword and response: a row that is
 * still a stored rule (same id) keeps that rule's type, buttons, image and active flag, so saving
 * here never undoes what the manager set; a new row is a plain, active text rule. Rows left
 * completely blank are dropped. `keys[i]` is the row behind `replies[i]`.
 */
export function mergeReplyRows(
  rows: readonly ReplyRow[],
  existing: readonly AutoReply[],
): { replies: AutoReplyInput[]; keys: string[] } {
  const byId = new Map(existing.map((r) => [r.id, r]));
  const replies: AutoReplyInput[] = [];
  const keys: string[] = [];
  for (const row of rows) {
    if (!row.keyword.trim() && !row.response.trim()) continue;
    const stored = row.id ? byId.get(row.id) : undefined;
    replies.push(
      stored
        ? {
            id: stored.id,
            trigger: row.keyword,
            response: row.response,
            type: stored.type,
            buttons: stored.buttons.map((b) => ({ ...b })),
            imageUrl: stored.imageUrl,
            isActive: stored.isActive,
          }
        : { trigger: row.keyword, response: row.response, type: 'text', buttons: [], imageUrl: '', isActive: true },
    );
    keys.push(row.key);
  }
  return { replies, keys };
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

/** The whole config as POST /api/bot-config takes it. */
export function botConfigBodyFromForm(
  form: BotConfigFormState,
  stored: StoredBotConfig,
): { body: BotConfigInput; keys: string[] } {
  const { replies, keys } = mergeReplyRows(form.replies, stored.autoReplies);
  const handoff = form.handoffMinutes.trim();
  const body: BotConfigInput = {
    isEnabled: form.isEnabled,
    welcomeMessage: form.welcomeMessage,
    autoReplies: replies,
    ...(sendsAiEnabled(form.aiEnabled, stored) ? { aiEnabled: form.aiEnabled } : {}),
    aiModel: form.aiModel.trim() || DEFAULT_AI_MODEL,
    businessHours: { start: form.businessStart, end: form.businessEnd, days: form.businessDays },
    outOfHoursMessage: form.outOfHoursMessage,
    aiInstructions: form.aiInstructions,
    ...(handoff ? { handoffMinutes: Number(handoff) } : {}),
  };
  return { body, keys };
}

/**
 * Whether the dialog holds edits that 'Salvar Configuração' would store: the form and the stored
 * config give different bodies. A blank row just added, or a field typed and typed back, is no change.
 */
export function botConfigFormDirty(form: BotConfigFormState, stored: BotConfig): boolean {
  // An emptied minutes field keeps the stored value.
  const now = { handoffMinutes: stored.handoffMinutes, ...botConfigBodyFromForm(form, stored).body };
  const before = {
    handoffMinutes: stored.handoffMinutes,
    ...botConfigBodyFromForm(formFromConfig(stored), stored).body,
  };
  return JSON.stringify(now) !== JSON.stringify(before);
}

/** Fields outside the reply rows that can carry a message. */
export type BotConfigField =
  | 'welcomeMessage'
  | 'aiModel'
  | 'businessHours'
  | 'outOfHoursMessage'
  | 'aiInstructions'
  | 'handoffMinutes';

export interface BotConfigCheck {
  body: BotConfigInput;
  /** The first problem, for the toast; null when the config can be sent. */
  toast: string | null;
  /** Messages by row key. */
  rowErrors: Record<string, string>;
  fieldErrors: Partial<Record<BotConfigField, string>>;
}

/** The contract's own checks, run in the browser so each message lands next to its field. */
export function checkBotConfigForm(form: BotConfigFormState, stored: StoredBotConfig): BotConfigCheck {
  const { body, keys } = botConfigBodyFromForm(form, stored);
  const parsed = botConfigInput.safeParse(body);
  if (parsed.success) return { body, toast: null, rowErrors: {}, fieldErrors: {} };
  const rowErrors: Record<string, string> = {};
  const fieldErrors: Partial<Record<BotConfigField, string>> = {};
  for (const issue of parsed.error.issues) {
    const [head, index] = issue.path;
    if (head === 'autoReplies' && typeof index === 'number') {
      const key = keys[index];
      if (key && !rowErrors[key]) rowErrors[key] = issue.message;
    } else if (typeof head === 'string' && head !== 'autoReplies') {
      const field = head as BotConfigField;
      fieldErrors[field] ??= issue.message;
    }
  }
  return { body, toast: parsed.error.issues[0]?.message ?? null, rowErrors, fieldErrors };
}

/**
 * Why AI is off on this server, for the signed-in user: an administrator is told the setting to
 * fill in, a customer to ask support (no setting names on a customer's screen).
 */
export function aiUnavailableText(user: Pick<User, 'accountType' | 'isActive'>): string {
  return aiUnavailableFor(roleOf(user));
}
