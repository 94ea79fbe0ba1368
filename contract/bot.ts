import './zod-locale';
import { z } from 'zod';
import type { Role } from './auth';
import { BUSINESS_DAYS } from './constants';
import { contactCardInput, locationInput, messageLocationSchema } from './message-content';
import { phoneDigits } from './phone';
import { isHttpUrl } from './saved-messages';
import { text } from './text';
import { normalizeForMatch } from './text-match';
import { uploadIdOf } from './uploads';

/** pt-BR texts of the chatbot screens and `/api/bot-config` (SPEC §5, §8). */
export const botMsg = {
  queueNotFound: 'Fila não encontrada. Escolha uma das filas da conta.',
  savedTitle: 'Sucesso!',
  saved: 'Configuração do bot salva com sucesso.',
  saveErrorTitle: 'Erro',
  saveError: 'Erro ao salvar configuração. Tente novamente.',
  autoMessageRequired: 'Preencha a palavra-chave e a mensagem.',
  buttonRequired: 'Preencha o texto e o valor do botão.',
  keywordRequired: 'Informe a palavra-chave de cada resposta automática.',
  keywordTooLong: 'A palavra-chave deve ter no máximo 100 caracteres.',
  keywordDuplicate: (trigger: string) => `A palavra-chave "${trigger}" aparece em mais de uma resposta automática.`,
  responseRequired: 'Informe a resposta de cada resposta automática.',
  responseTooLong: 'A resposta deve ter no máximo 4.096 caracteres.',
  captionTooLong: 'Com imagem, o texto deve ter no máximo 1.024 caracteres (limite do WhatsApp para legendas).',
  welcomeTooLong: 'A mensagem de boas-vindas deve ter no máximo 4.096 caracteres.',
  outOfHoursTooLong: 'A mensagem fora do expediente deve ter no máximo 4.096 caracteres.',
  instructionsTooLong: 'A descrição do negócio para a IA deve ter no máximo 4.000 caracteres.',
  tooManyReplies: 'Use no máximo 2.000 respostas automáticas.',
  typeInvalid:
    'Tipo de mensagem inválido. Use texto, interativa, imagem, documento, áudio, vídeo, localização ou contato.',
  mediaRequired: 'Escolha o arquivo da mensagem: envie um arquivo ou informe um link https.',
  mediaInvalid: 'Arquivo inválido. Envie um arquivo ou informe um link que comece com https://.',
  mediaNotFound: 'Arquivo não encontrado. Envie o arquivo de novo.',
  mediaWrongKind: (expected: string, got: string) =>
    `O arquivo escolhido é ${got}, mas a mensagem é do tipo ${expected}. Escolha ${expected}.`,
  locationRequired: 'Informe a latitude e a longitude da localização.',
  contactCardRequired: 'Informe o nome e o telefone do contato a enviar.',
  buttonsOnlyInteractive: 'Botões só podem ser usados em mensagens interativas ou com imagem.',
  tooManyButtons: 'Use no máximo 3 botões por mensagem (limite do WhatsApp).',
  buttonTextTooLong: 'O texto do botão deve ter no máximo 20 caracteres (limite do WhatsApp).',
  buttonTypeInvalid: 'Tipo de botão inválido. Use link, telefone ou resposta rápida.',
  buttonUrlInvalid: 'O link do botão deve começar com http:// ou https://.',
  buttonPhoneInvalid: 'O telefone do botão deve ter de 10 a 15 dígitos, com DDD.',
  buttonKeywordTooLong: 'A palavra-chave do botão deve ter no máximo 100 caracteres.',
  imageUrlRequired: 'Informe o link da imagem da mensagem com imagem.',
  imageUrlInvalid: 'Link da imagem inválido. Use um endereço que comece com http:// ou https://.',
  modelInvalid: 'Modelo de IA inválido.',
  timeFormat: 'Horário inválido. Use o formato HH:MM',
  businessOrder: 'O início do expediente deve ser anterior ao fim',
  daysInvalid: 'Dias do expediente inválidos.',
  handoffRange: 'O tempo de atendimento humano deve ser de 5 minutos a 7 dias.',
  booleanInvalid: 'Valor inválido: use ativado ou desativado',
  ruleAdded: 'Mensagem adicionada com sucesso.',
  ruleUpdated: 'Mensagem atualizada com sucesso.',
  rulePaused: 'Mensagem pausada: o bot não a envia até ser ativada.',
  ruleActivated: 'Mensagem ativada.',
  ruleRemoved: 'Mensagem removida com sucesso.',
  ruleNotFound: 'Mensagem automática não encontrada.',
  ruleIdInvalid: 'Identificador de mensagem automática inválido.',
  /** What a customer reads when the server has no AI key: nothing they can act on but asking. */
  aiUnavailable: 'IA indisponível neste servidor — fale com o suporte.',
  /** What an administrator reads instead: the setting that makes it work. */
  aiUnavailableAdmin:
    'IA indisponível neste servidor: defina a chave da OpenAI na variável de ambiente OPENAI_API_KEY e reinicie o servidor.',
} as const;

/**
 * The 'AI unavailable' text for who reads it: only an administrator, who runs the server, is told
 * the setting's name; a customer is sent to support. The server answers a refused save with it and
 * the web app shows it by the signed-in user's role.
 */
export function aiUnavailableFor(role: Role): string {
  return role === 'admin' ? botMsg.aiUnavailableAdmin : botMsg.aiUnavailable;
}

export const autoReplyTypes = [
  'text',
  'interactive',
  'image',
  'document',
  'audio',
  'video',
  'location',
  'contact',
] as const;
export type AutoReplyType = (typeof autoReplyTypes)[number];
export const autoReplyTypeLabels: Record<AutoReplyType, string> = {
  text: 'Texto',
  interactive: 'Interativa',
  image: 'Imagem',
  document: 'Documento',
  audio: 'Áudio',
  video: 'Vídeo',
  location: 'Localização',
  contact: 'Contato',
};
/** The rule types that send one of the account's files (`mediaUrl`), the file's kind being the type. */
export const autoReplyFileTypes = ['document', 'audio', 'video'] as const;
export type AutoReplyFileType = (typeof autoReplyFileTypes)[number];
export const isFileRule = (type: AutoReplyType): type is AutoReplyFileType =>
  (autoReplyFileTypes as readonly string[]).includes(type);
/** How a refusal names a file's kind: 'um documento', 'um áudio'… */
export const fileKindArticles: Record<string, string> = {
  image: 'uma imagem',
  document: 'um documento',
  audio: 'um áudio',
  video: 'um vídeo',
  sticker: 'uma figurinha',
};
/** The rule types whose text may be left empty (the file, the place or the card is the message). */
const TEXT_OPTIONAL: ReadonlySet<AutoReplyType> = new Set(['document', 'audio', 'video', 'location', 'contact']);
/** The rule types whose text is a caption (WhatsApp's 1,024 characters). */
const CAPTIONED: ReadonlySet<AutoReplyType> = new Set(['image', 'document', 'video']);
export const botButtonTypes = ['url', 'phone', 'quick_reply'] as const;
export type BotButtonType = (typeof botButtonTypes)[number];
export const botButtonTypeLabels: Record<BotButtonType, string> = {
  url: 'Link',
  phone: 'Telefone',
  quick_reply: 'Resposta rápida',
};

export const BOT_TRIGGER_MAX = 100;
export const BOT_TEXT_MAX = 4096;
/** WhatsApp's limit for an image caption. */
export const BOT_CAPTION_MAX = 1024;
/** WhatsApp's limit for reply buttons in one message, and for a button's title. */
export const BOT_BUTTONS_MAX = 3;
export const BOT_BUTTON_TEXT_MAX = 20;
export const BOT_REPLIES_MAX = 2000;
export const BOT_AI_INSTRUCTIONS_MAX = 4000;
/** A person who answers a conversation silences the bot for this long unless configured. */
export const DEFAULT_HANDOFF_MINUTES = 120;
export const HANDOFF_MINUTES_MIN = 5;
export const HANDOFF_MINUTES_MAX = 7 * 24 * 60;
/** A conversation is new after this much silence, and gets the welcome message again. */
export const CONVERSATION_IDLE_HOURS = 24;
export const DEFAULT_AI_MODEL = 'gpt-3.5-turbo';

/**
 * What the reply pipeline records per inbound message (one event per step that decided something):
 * the auto-reply, active-chat and response-rate figures are counts of these.
 */
export const BOT_EVENT_KINDS = [
  'inbound',
  'opt_out',
  'taken_over',
  'disabled',
  'out_of_hours',
  'welcome',
  'auto_reply',
  'ai_reply',
  'ai_failed',
  'handoff',
  'no_match',
  'reply_failed',
] as const;
export type BotEventKind = (typeof BOT_EVENT_KINDS)[number];
/** The events that are a reply the bot sent. */
export const BOT_REPLY_KINDS = [
  'welcome',
  'auto_reply',
  'ai_reply',
  'out_of_hours',
  'handoff',
] as const satisfies readonly BotEventKind[];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bool = () => z.boolean({ error: botMsg.booleanInvalid });

/** A reply button (SPEC §3 Button): a link, a phone number, or a keyword whose reply it triggers. */
export const botButtonInput = z
  .object({
    id: text().max(100).optional(),
    text: text({ error: botMsg.buttonRequired })
      .trim()
      .min(1, botMsg.buttonRequired)
      .max(BOT_BUTTON_TEXT_MAX, botMsg.buttonTextTooLong),
    type: z.enum(botButtonTypes, { error: botMsg.buttonTypeInvalid }),
    value: text({ error: botMsg.buttonRequired })
      .trim()
      .min(1, botMsg.buttonRequired)
      .max(2048, botMsg.buttonUrlInvalid),
  })
  .superRefine((b, ctx) => {
    if (b.type === 'url' && !isHttpUrl(b.value))
      ctx.addIssue({ code: 'custom', message: botMsg.buttonUrlInvalid, path: ['value'] });
    if (b.type === 'phone') {
      const digits = phoneDigits(b.value);
      if (digits.length < 10 || digits.length > 15 || /[^\d+\-\s().]/.test(b.value))
        ctx.addIssue({ code: 'custom', message: botMsg.buttonPhoneInvalid, path: ['value'] });
    }
    if (b.type === 'quick_reply' && b.value.length > BOT_TRIGGER_MAX)
      ctx.addIssue({ code: 'custom', message: botMsg.buttonKeywordTooLong, path: ['value'] });
  });

const autoReplyFields = z.object({
  id: text().max(100).optional(),
  keyword: text({ error: botMsg.keywordRequired }).optional(),
  trigger: text({ error: botMsg.keywordRequired }).optional(),
  response: text({ error: botMsg.responseRequired }),
  type: z.enum(autoReplyTypes, { error: botMsg.typeInvalid }).default('text'),
  buttons: z.array(botButtonInput).max(BOT_BUTTONS_MAX, botMsg.tooManyButtons).default([]),
  imageUrl: text({ error: botMsg.imageUrlInvalid }).trim().max(2048, botMsg.imageUrlInvalid).nullish(),
  /** A document, audio or video rule's file: `upload:<id>` of one of the account's files, or an https link. */
  mediaUrl: text({ error: botMsg.mediaInvalid }).trim().max(2048, botMsg.mediaInvalid).nullish(),
  location: locationInput.nullish(),
  contactCard: contactCardInput.nullish(),
  /** The queue (Filas) a conversation is handed to when the rule matches: the rule's reply, then a person of that team. */
  queueId: z.uuid({ error: botMsg.queueNotFound }).nullish(),
  isActive: bool().default(true),
});

/** `upload:<id>` or an https link. */
function isRuleMediaRef(ref: string): boolean {
  if (uploadIdOf(ref, { uuidOnly: true }) !== null) return true;
  try {
    return new URL(ref).protocol === 'https:';
  } catch {
    return false;
  }
}

/** The rule's checks and its stored shape, whichever schema read it (with or without an id). */
function toRule(r: Omit<z.output<typeof autoReplyFields>, 'id'> & { id?: string }, ctx: z.RefinementCtx) {
  const trigger = (r.trigger ?? r.keyword ?? '').trim();
  const response = r.response.trim();
  const imageUrl = r.imageUrl ?? '';
  if (!trigger) ctx.addIssue({ code: 'custom', message: botMsg.keywordRequired, path: ['trigger'] });
  else if (trigger.length > BOT_TRIGGER_MAX)
    ctx.addIssue({ code: 'custom', message: botMsg.keywordTooLong, path: ['trigger'] });
  if (!response && !TEXT_OPTIONAL.has(r.type))
    ctx.addIssue({ code: 'custom', message: botMsg.responseRequired, path: ['response'] });
  const max = CAPTIONED.has(r.type) ? BOT_CAPTION_MAX : BOT_TEXT_MAX;
  if (response.length > max)
    ctx.addIssue({
      code: 'custom',
      message: CAPTIONED.has(r.type) ? botMsg.captionTooLong : botMsg.responseTooLong,
      path: ['response'],
    });
  const buttoned = r.type === 'interactive' || r.type === 'image';
  if (!buttoned && r.buttons.length > 0)
    ctx.addIssue({ code: 'custom', message: botMsg.buttonsOnlyInteractive, path: ['buttons'] });
  const mediaUrl = r.mediaUrl ?? '';
  if (isFileRule(r.type)) {
    if (!mediaUrl) ctx.addIssue({ code: 'custom', message: botMsg.mediaRequired, path: ['mediaUrl'] });
    else if (!isRuleMediaRef(mediaUrl))
      ctx.addIssue({ code: 'custom', message: botMsg.mediaInvalid, path: ['mediaUrl'] });
  }
  if (r.type === 'location' && !r.location)
    ctx.addIssue({ code: 'custom', message: botMsg.locationRequired, path: ['location'] });
  if (r.type === 'contact' && !r.contactCard)
    ctx.addIssue({ code: 'custom', message: botMsg.contactCardRequired, path: ['contactCard'] });
  if (r.type === 'image' && !imageUrl)
    ctx.addIssue({ code: 'custom', message: botMsg.imageUrlRequired, path: ['imageUrl'] });
  if (imageUrl && !isHttpUrl(imageUrl))
    ctx.addIssue({ code: 'custom', message: botMsg.imageUrlInvalid, path: ['imageUrl'] });
  return {
    /** A stored rule's id is kept across saves (the editors match rows by it); anything else gets a new one. */
    id: r.id && UUID.test(r.id) ? r.id.toLowerCase() : undefined,
    trigger,
    response,
    type: r.type,
    buttons: r.buttons.map((b, i) => ({ id: b.id || `btn-${i + 1}`, text: b.text, type: b.type, value: b.value })),
    imageUrl: r.type === 'image' ? imageUrl : '',
    /** `upload:<id>` once saved (a link is fetched into the account's files then); '' for other types. */
    mediaUrl: isFileRule(r.type) ? mediaUrl : '',
    location: r.type === 'location' ? (r.location ?? null) : null,
    contactCard: r.type === 'contact' ? (r.contactCard ?? null) : null,
    queueId: r.queueId?.toLowerCase() ?? null,
    isActive: r.isActive,
  };
}

/**
 * One auto reply as either editor sends it: the simple dialog's `{ keyword, response }` or the
 * manager's `{ trigger, response, type, buttons, imageUrl, isActive }` (SPEC §3). Both become one rule.
 */
export const autoReplyInput = autoReplyFields.transform(toRule);
export type AutoReplyInput = z.input<typeof autoReplyInput>;

/**
 * A rule as a backup keeps it (contract/backup.ts): `queue` names the queue (Filas) it hands the
 * conversation to by the queue's name, since ids are the account's own; a restore points the rule
 * at the restoring account's queue of that name.
 */
export const backupAutoReplyInput = autoReplyFields
  .extend({ queue: text().trim().max(100).optional() })
  .transform((r, ctx) => ({ ...toRule(r, ctx), queue: r.queue }));

/**
 * `POST /api/bot-config/auto-replies` and `PUT /api/bot-config/auto-replies/{id}`: one rule in the
 * manager's shape of SPEC §3 (trigger, response, type, buttons, imageUrl, isActive), checked as in
 * a whole save; the id is the path's.
 */
export const autoReplyRuleInput = autoReplyFields.omit({ id: true }).transform(toRule);
export type AutoReplyRuleInput = z.input<typeof autoReplyRuleInput>;

export const autoReplyIdParams = z.object({ id: z.uuid({ error: botMsg.ruleIdInvalid }) });
export type AutoReplyRule = z.output<typeof autoReplyInput>;

/** The first message of a failed parse, or `fallback`. */
const firstMessage = (result: { error?: { issues: { message: string }[] } }, fallback: string) =>
  result.error?.issues[0]?.message ?? fallback;

/** What 'Criar Nova Mensagem Automática' edits. */
export const autoReplyDraft = z.object({
  trigger: z.string(),
  type: z.enum(autoReplyTypes),
  response: z.string(),
  imageUrl: z.string(),
  buttons: z.array(z.object({ id: z.string(), text: z.string(), type: z.enum(botButtonTypes), value: z.string() })),
  /** A document, audio or video rule's file (`upload:<id>` once picked). */
  mediaUrl: z.string().optional(),
  /** A location rule's fields as typed (latitude and longitude as text). */
  location: z
    .object({
      latitude: z.string().optional(),
      longitude: z.string().optional(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contactCard: z.object({ name: z.string().optional(), phone: z.string().optional() }).optional(),
  /** The queue (Filas) the conversation goes to after the reply; '' or absent for none. */
  queueId: z.string().optional(),
});
export type AutoReplyDraft = z.infer<typeof autoReplyDraft>;

/**
 * The 'Criar Nova Mensagem Automática' form, given the keywords the other rules already use. SPEC §5:
 * keyword and content first ('Preencha a palavra-chave e a mensagem.'), then `autoReplyInput`'s rule
 * checks (image link, caption length, buttons) and a keyword no other rule uses. One message at a
 * time, as the form's 'root' error (the dialog shows it as a toast). Buttons count only for a rule
 * with buttons, the image only for an image rule. Gives the rule, trimmed, without an id.
 */
export function autoReplyForm(existingKeywords: readonly string[]) {
  const taken = new Set(existingKeywords.map(normalizeForMatch));
  return autoReplyDraft.transform((d, ctx): AutoReplyRule => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message, path: ['root'] });
      return z.NEVER;
    };
    if (!d.trigger.trim() || (!d.response.trim() && !TEXT_OPTIONAL.has(d.type)))
      return fail(botMsg.autoMessageRequired);
    const loc = {
      latitude: d.location?.latitude ?? '',
      longitude: d.location?.longitude ?? '',
      name: d.location?.name ?? '',
      address: d.location?.address ?? '',
    };
    const parsed = autoReplyInput.safeParse({
      trigger: d.trigger,
      response: d.response,
      type: d.type,
      buttons: d.type === 'interactive' || d.type === 'image' ? d.buttons : [],
      imageUrl: d.type === 'image' ? d.imageUrl : '',
      mediaUrl: isFileRule(d.type) ? (d.mediaUrl ?? '') : '',
      location:
        d.type === 'location'
          ? loc.latitude.trim() || loc.longitude.trim()
            ? {
                latitude: loc.latitude.trim() === '' ? Number.NaN : loc.latitude.replace(',', '.'),
                longitude: loc.longitude.trim() === '' ? Number.NaN : loc.longitude.replace(',', '.'),
                ...(loc.name.trim() ? { name: loc.name } : {}),
                ...(loc.address.trim() ? { address: loc.address } : {}),
              }
            : null
          : null,
      contactCard:
        d.type === 'contact' && (d.contactCard?.name?.trim() || d.contactCard?.phone?.trim())
          ? { name: d.contactCard?.name ?? '', phone: d.contactCard?.phone ?? '' }
          : null,
      queueId: d.queueId ? d.queueId : null,
      isActive: true,
    });
    if (!parsed.success) return fail(firstMessage(parsed, botMsg.autoMessageRequired));
    if (taken.has(normalizeForMatch(parsed.data.trigger))) return fail(botMsg.keywordDuplicate(parsed.data.trigger));
    return parsed.data;
  });
}

/** The 'add button' row of the new-message dialog. */
export const autoReplyButtonDraft = z.object({ text: z.string(), type: z.enum(botButtonTypes), value: z.string() });
export type AutoReplyButtonDraft = z.infer<typeof autoReplyButtonDraft>;

/**
 * The 'add button' row, given the rule's buttons so far. SPEC §5: text and value first ('Preencha o
 * texto e o valor do botão.'), at most BOT_BUTTONS_MAX buttons, then `botButtonInput`'s checks
 * (http(s) link, 10–15 digit phone, text length). One message at a time, as the 'root' error. Gives
 * the button with the first `btn-N` id not taken.
 */
export function autoReplyButtonForm(buttons: readonly { id: string }[]) {
  return autoReplyButtonDraft.transform((d, ctx): BotButton => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message, path: ['root'] });
      return z.NEVER;
    };
    if (!d.text.trim() || !d.value.trim()) return fail(botMsg.buttonRequired);
    if (buttons.length >= BOT_BUTTONS_MAX) return fail(botMsg.tooManyButtons);
    const parsed = botButtonInput.safeParse(d);
    if (!parsed.success) return fail(firstMessage(parsed, botMsg.buttonRequired));
    const taken = new Set(buttons.map((b) => b.id));
    let n = buttons.length + 1;
    while (taken.has(`btn-${n}`)) n += 1;
    return { id: `btn-${n}`, text: parsed.data.text, type: parsed.data.type, value: parsed.data.value };
  });
}

const timeField = () => text({ error: botMsg.timeFormat }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, botMsg.timeFormat);

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];
export const weekdayLabels: Record<Weekday, string> = {
  monday: 'Seg',
  tuesday: 'Ter',
  wednesday: 'Qua',
  thursday: 'Qui',
  friday: 'Sex',
  saturday: 'Sáb',
  sunday: 'Dom',
};

/** The account's one set of business hours (shared with the WhatsApp settings). */
export const businessHoursInput = z
  .object({
    start: timeField(),
    end: timeField(),
    days: z
      .array(z.enum(weekdays, { error: botMsg.daysInvalid }), { error: botMsg.daysInvalid })
      .max(7, botMsg.daysInvalid)
      .transform((days) => weekdays.filter((d) => days.includes(d))),
  })
  .refine((h) => h.start < h.end, { message: botMsg.businessOrder, path: ['end'] });

/**
 * `POST /api/bot-config`: the whole config of SPEC §3. Every field may be left out, and then keeps
 * its stored value; `outOfHoursMessage`, `aiInstructions` and `handoffMinutes` are ours.
 */
export const botConfigInput = z
  .object({
    isEnabled: bool().optional(),
    welcomeMessage: text({ error: botMsg.welcomeTooLong }).max(BOT_TEXT_MAX, botMsg.welcomeTooLong).optional(),
    autoReplies: z.array(autoReplyInput).max(BOT_REPLIES_MAX, botMsg.tooManyReplies).optional(),
    aiEnabled: bool().optional(),
    aiModel: text({ error: botMsg.modelInvalid })
      .trim()
      .min(1, botMsg.modelInvalid)
      .max(100, botMsg.modelInvalid)
      .regex(/^[\w.:/-]+$/, botMsg.modelInvalid)
      .optional(),
    businessHours: businessHoursInput.optional(),
    outOfHoursMessage: text({ error: botMsg.outOfHoursTooLong }).max(BOT_TEXT_MAX, botMsg.outOfHoursTooLong).optional(),
    aiInstructions: text({ error: botMsg.instructionsTooLong })
      .max(BOT_AI_INSTRUCTIONS_MAX, botMsg.instructionsTooLong)
      .optional(),
    handoffMinutes: z
      .number({ error: botMsg.handoffRange })
      .int(botMsg.handoffRange)
      .min(HANDOFF_MINUTES_MIN, botMsg.handoffRange)
      .max(HANDOFF_MINUTES_MAX, botMsg.handoffRange)
      .optional(),
  })
  .superRefine((c, ctx) => refuseRepeatedTriggers(c.autoReplies ?? [], ctx));
export type BotConfigInput = z.input<typeof botConfigInput>;

/** Two rules whose triggers match the same words (accents and case aside) are one rule too many. */
export function refuseRepeatedTriggers(rules: ReadonlyArray<{ trigger: string }>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const [i, r] of rules.entries()) {
    const key = normalizeForMatch(r.trigger);
    if (seen.has(key))
      ctx.addIssue({
        code: 'custom',
        message: botMsg.keywordDuplicate(r.trigger),
        path: ['autoReplies', i, 'trigger'],
      });
    seen.add(key);
  }
}

export const botButtonSchema = z.object({
  id: z.string(),
  text: z.string(),
  type: z.enum(botButtonTypes),
  value: z.string(),
});
export type BotButton = z.infer<typeof botButtonSchema>;

/** A stored rule; `keyword` repeats `trigger` so the simple dialog of the spec reads it as it wrote it. */
export const autoReplySchema = z.object({
  id: z.string(),
  keyword: z.string(),
  trigger: z.string(),
  response: z.string(),
  type: z.enum(autoReplyTypes),
  buttons: z.array(botButtonSchema),
  imageUrl: z.string(),
  /** A document, audio or video rule's file, `upload:<id>`; '' for other types. */
  mediaUrl: z.string(),
  location: messageLocationSchema.nullable(),
  contactCard: z.object({ name: z.string(), phone: z.string() }).nullable(),
  /** The queue the rule hands a conversation to, or null (ours, additive). */
  queueId: z.string().nullable().optional(),
  isActive: z.boolean(),
});
export type AutoReply = z.infer<typeof autoReplySchema>;

export const botConfigSchema = z.object({
  isEnabled: z.boolean(),
  welcomeMessage: z.string(),
  autoReplies: z.array(autoReplySchema),
  aiEnabled: z.boolean(),
  aiModel: z.string(),
  businessHours: z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(weekdays)) }),
  outOfHoursMessage: z.string(),
  aiInstructions: z.string(),
  handoffMinutes: z.number().int(),
  /** Whether this server can answer with AI (it has an OpenAI key). */
  aiAvailable: z.boolean(),
});
export type BotConfig = z.infer<typeof botConfigSchema>;

export const botConfigSavedResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  config: botConfigSchema,
});

/** A rule added or changed on its own: the rule as stored, and the whole config after it (as a save answers). */
export const autoReplySavedResponse = botConfigSavedResponse.extend({ rule: autoReplySchema });

/** The defaults of SPEC §3, before an account saves anything. */
export const DEFAULT_BOT_CONFIG = {
  isEnabled: true,
  welcomeMessage: '',
  aiEnabled: false,
  aiModel: DEFAULT_AI_MODEL,
  businessHours: { start: '09:00', end: '18:00', days: [...BUSINESS_DAYS] as Weekday[] },
  outOfHoursMessage: '',
  aiInstructions: '',
  handoffMinutes: DEFAULT_HANDOFF_MINUTES,
} as const;

/** The three sample messages offered to a new account (SPEC §2), with its support number and e-mail. */
export function sampleAutoReplies(support: { phone: string; email: string; site?: string }): AutoReplyInput[] {
  const site = support.site || 'https://www.exemplo.com.br';
  const phone = phoneDigits(support.phone) || '5511999999999';
  const email = support.email || 'contato@exemplo.com.br';
  return [
    {
      trigger: 'oi',
      response: 'Olá! 👋 Seja bem-vindo(a). Como podemos ajudar você hoje?',
      type: 'interactive',
      imageUrl: '',
      isActive: true,
      buttons: [
        { id: 'btn-1', text: 'Ver produtos', type: 'quick_reply', value: 'produtos' },
        { id: 'btn-2', text: 'Falar com suporte', type: 'quick_reply', value: 'suporte' },
        { id: 'btn-3', text: 'Nosso site', type: 'url', value: site },
      ],
    },
    {
      trigger: 'produtos',
      response: 'Conheça nossos produtos e condições especiais. Escolha uma opção abaixo:',
      type: 'interactive',
      imageUrl: '',
      isActive: true,
      buttons: [
        { id: 'btn-1', text: 'Catálogo', type: 'url', value: `${site.replace(/\/$/, '')}/produtos` },
        { id: 'btn-2', text: 'Preços', type: 'quick_reply', value: 'preço' },
        { id: 'btn-3', text: 'Ligar para vendas', type: 'phone', value: phone },
      ],
    },
    {
      trigger: 'suporte',
      response: `Nosso suporte atende de segunda a sexta, das 9h às 18h. E-mail: ${email}`,
      type: 'interactive',
      imageUrl: '',
      isActive: true,
      buttons: [
        { id: 'btn-1', text: 'Ligar para suporte', type: 'phone', value: phone },
        { id: 'btn-2', text: 'Central de ajuda', type: 'url', value: `${site.replace(/\/$/, '')}/ajuda` },
        { id: 'btn-3', text: 'Falar com atendente', type: 'quick_reply', value: 'atendente' },
      ],
    },
  ];
}
