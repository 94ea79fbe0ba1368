import { z } from 'zod';
import {
  contactCardInput,
  locationInput,
  MEDIA_KINDS,
  messageContactCardSchema,
  messageLocationSchema,
} from './message-content';
import { countLabel } from './plural';
import { text } from './text';

/**
 * Campaign statuses (SPEC §4). `paused` and `cancelled` are ours: the spec's six plus what a
 * sender needs to stop a campaign that is going out.
 */
export const campaignStatuses = [
  'draft',
  'scheduled',
  'sending',
  'in_progress',
  'paused',
  'cancelled',
  'completed',
  'failed',
] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];
export const campaignTargetTypes = ['all', 'groups', 'contacts'] as const;
export type CampaignTargetType = (typeof campaignTargetTypes)[number];

/** A recipient row's life: queued → sending → sent → delivered → read, or failed / skipped. */
export const recipientStatuses = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type RecipientStatus = (typeof recipientStatuses)[number];

/** Why a started campaign is waiting instead of sending (status `in_progress`). */
export const campaignWaitReasons = [
  'outside_hours',
  'daily_limit',
  'offline',
  'messaging_limit',
  'numbers_stopped',
] as const;
export type CampaignWaitReason = (typeof campaignWaitReasons)[number];

/**
 * The groups of statuses every side speaks of, defined once (the server's SQL and the browser's
 * polling read these lists):
 * - not started: no recipient rows yet; the campaign may still be edited or sent;
 * - running: started and not ended, sending now (`sending`) or waiting to go on (`in_progress`);
 * - live: moved on by the engine without anyone asking (scheduled ones start at their time);
 * - finished: ended, nothing more goes out (receipts of what went out may still arrive).
 */
export const CAMPAIGN_NOT_STARTED = ['draft', 'scheduled'] as const satisfies readonly CampaignStatus[];
export const CAMPAIGN_RUNNING = ['sending', 'in_progress'] as const satisfies readonly CampaignStatus[];
export const CAMPAIGN_LIVE = ['scheduled', ...CAMPAIGN_RUNNING] as const satisfies readonly CampaignStatus[];
export const CAMPAIGN_FINISHED = ['completed', 'failed', 'cancelled'] as const satisfies readonly CampaignStatus[];

/** Whether `status` is one of `group` (a status the contract does not know is in none). */
export function isCampaignStatusIn(group: readonly CampaignStatus[], status: string): boolean {
  return (group as readonly string[]).includes(status);
}

/** Which status a user action may move a campaign from (anything else is a 409). */
export const CAMPAIGN_TRANSITIONS = {
  send: CAMPAIGN_NOT_STARTED,
  pause: CAMPAIGN_LIVE,
  resume: ['paused'],
  cancel: [...CAMPAIGN_LIVE, 'paused'],
  edit: CAMPAIGN_NOT_STARTED,
} as const satisfies Record<string, readonly CampaignStatus[]>;
export type CampaignAction = keyof typeof CAMPAIGN_TRANSITIONS;

/** Personalisation variables a message may use (SPEC-free, ours): `{{nome}}` and friends. */
export const CAMPAIGN_VARIABLES = ['nome', 'primeiro_nome', 'telefone', 'email'] as const;
export type CampaignVariable = (typeof CAMPAIGN_VARIABLES)[number];

export const CAMPAIGN_NAME_MAX = 120;
/** WhatsApp's own limit for a text message body. */
export const CAMPAIGN_MESSAGE_MAX = 4096;
/** The card's live progress refreshes at most this often while a campaign runs. */
export const CAMPAIGN_PROGRESS_POLL_MS = 3000;

export const campaignMsg = {
  created: 'Campanha criada com sucesso.',
  createError: 'Erro ao criar campanha. Tente novamente.',
  required: 'Nome e mensagem são obrigatórios.',
  nameTooLong: `O nome da campanha deve ter no máximo ${countLabel(CAMPAIGN_NAME_MAX, 'caractere', 'caracteres')}.`,
  messageTooLong: `A mensagem deve ter no máximo ${countLabel(CAMPAIGN_MESSAGE_MAX, 'caractere', 'caracteres')}.`,
  sent: 'Campanha enviada com sucesso.',
  sendError: 'Erro ao enviar campanha. Tente novamente.',
  deleted: 'Campanha excluída com sucesso.',
  deleteError: 'Erro ao excluir campanha. Tente novamente.',
  updated: 'Campanha atualizada com sucesso.',
  updateError: 'Erro ao atualizar campanha. Tente novamente.',
  paused: 'Campanha pausada.',
  resumed: 'Envio da campanha retomado.',
  cancelled: 'Campanha cancelada.',
  duplicated: 'Campanha duplicada como rascunho.',
  actionError: 'Não foi possível concluir a ação. Tente novamente.',
  testSent: (phone: string) => `Mensagem de teste enviada para ${phone}.`,
  testError: 'Erro ao enviar mensagem de teste. Tente novamente.',
  notFound: 'Campanha não encontrada.',
  fileNotFound: 'Arquivo não encontrado. Envie o arquivo novamente.',
  imageOrMedia: 'Use imageUrl ou mediaUrl, não os dois.',
  noCaption: 'Áudios e figurinhas não levam texto: deixe a mensagem vazia ou envie o texto em outra campanha.',
  groupsRequired: 'Selecione ao menos um grupo para a campanha.',
  unknownGroups: (names: string[]) =>
    names.length === 1 ? `Grupo não encontrado: ${names[0]}.` : `Grupos não encontrados: ${names.join(', ')}.`,
  unknownVariable: (name: string) =>
    `Variável desconhecida na mensagem: {{${name}}}. Use {{nome}}, {{primeiro_nome}}, {{telefone}} ou {{email}}.`,
  /** The preview's note on the recipients without a name, for a message with {{nome}} or {{primeiro_nome}}. */
  namelessFallback: (n: number, fallbacks: readonly string[]) =>
    `${countLabel(n, 'destinatário sem nome receberá', 'destinatários sem nome receberão')} ${fallbacks.map((f) => `“${f}”`).join(' ou ')}.`,
  namelessEmpty: (n: number, example: string) =>
    `${countLabel(n, 'destinatário sem nome ficará', 'destinatários sem nome ficarão')} sem o nome — defina um valor padrão: ${example}`,
  scheduledInPast: 'A data de agendamento precisa estar no futuro.',
  scheduleRequired: 'Informe a data e a hora do agendamento.',
  noRecipients: 'A campanha não tem destinatários: nenhum contato ou grupo ativo corresponde ao público escolhido.',
  notConnected: 'Conecte seu WhatsApp para enviar mensagens.',
  numberNotFound: 'Número de WhatsApp não encontrado: escolha entre os números da sua conta.',
  tooManyNumbers: 'Escolha no máximo 50 números para uma campanha.',
  testPhoneRequired: 'Informe um número para o teste: sua conta ainda não tem um número de WhatsApp conectado.',
  invalidPhone: 'Número de telefone inválido.',
  transition: (action: CampaignAction, status: string) =>
    `Não é possível ${ACTION_VERB[action]} uma campanha com status "${campaignStatusLabel(status)}".`,
  /** Why a campaign is waiting (status in_progress), shown on its card. */
  waiting: {
    outside_hours: 'Aguardando o horário comercial para continuar.',
    daily_limit: 'Limite diário de mensagens atingido; continua amanhã.',
    offline: 'WhatsApp desconectado; o envio continua quando reconectar.',
    messaging_limit: 'Limite de conversas da conta na API oficial atingido; continua quando a janela de 24 h avançar.',
    numbers_stopped:
      'Os números escolhidos pararam de enviar (pausados ou restritos pelo WhatsApp); veja o motivo de cada um na página Números.',
  } satisfies Record<CampaignWaitReason, string>,
  /** Why the engine paused a campaign by itself. */
  pauseReason: {
    burst: (failed: number, window: number) =>
      `Pausada automaticamente: ${countLabel(failed, 'falha', 'falhas')} nas últimas ${countLabel(window, 'mensagem', 'mensagens')}. Verifique a conexão e os números antes de retomar, para proteger seu número de bloqueios.`,
    spam: 'Pausada automaticamente: o WhatsApp limitou este número por suspeita de spam. Aguarde algumas horas antes de retomar.',
    timeLock:
      'Pausada automaticamente: o WhatsApp bloqueou temporariamente o envio para quem não iniciou conversa com você. Aguarde antes de retomar.',
    auth: 'Pausada automaticamente: as credenciais da conexão de WhatsApp não são mais válidas. Reconecte e retome.',
  },
  /** Why a recipient was skipped or failed. */
  reason: {
    optedOut: 'Contato pediu para não receber mensagens (opt-out).',
    pairLimit:
      'O WhatsApp limitou as mensagens deste número para o mesmo contato (131056); nova tentativa em instantes.',
    noWhatsapp: 'Número sem WhatsApp.',
    invalidNumber: 'Número de telefone inválido.',
    planLimit: 'Acima do limite de contatos do plano.',
    groupNotLinked: 'Grupo não vinculado a um grupo do WhatsApp.',
    tooManyAttempts: 'Falhou após várias tentativas.',
    cancelled: 'Campanha cancelada antes do envio.',
    deliveryFailed: 'Falha na entrega.',
  },
} as const;

const ACTION_VERB: Record<CampaignAction, string> = {
  send: 'enviar',
  pause: 'pausar',
  resume: 'retomar',
  cancel: 'cancelar',
  edit: 'editar',
};

/** Status labels and colours (SPEC §4; paused and cancelled are ours). Unknown statuses show the raw value. */
export const CAMPAIGN_STATUS_LABELS: Record<
  CampaignStatus,
  { label: string; color: 'gray' | 'yellow' | 'blue' | 'green' | 'red' }
> = {
  draft: { label: 'Rascunho', color: 'gray' },
  scheduled: { label: 'Agendada', color: 'yellow' },
  sending: { label: 'Enviando', color: 'blue' },
  in_progress: { label: 'Em andamento', color: 'blue' },
  paused: { label: 'Pausada', color: 'gray' },
  cancelled: { label: 'Cancelada', color: 'red' },
  completed: { label: 'Concluída', color: 'green' },
  failed: { label: 'Falhou', color: 'red' },
};

export function campaignStatusLabel(status: string): string {
  return Object.hasOwn(CAMPAIGN_STATUS_LABELS, status)
    ? CAMPAIGN_STATUS_LABELS[status as CampaignStatus].label
    : status;
}

export const RECIPIENT_STATUS_LABELS: Record<RecipientStatus, string> = {
  queued: 'Na fila',
  sending: 'Enviando',
  sent: 'Enviada',
  delivered: 'Entregue',
  read: 'Lida',
  failed: 'Falhou',
  skipped: 'Ignorada',
};

// Requests

/** How many numbers one campaign may send through. */
export const CAMPAIGN_NUMBERS_MAX = 50;

/** As many group names as a backup keeps for a campaign; a longer list is refused before its items are read (DESIGN §3). */
const TARGET_GROUPS_MAX = 1000;

const groupNames = z
  .union([text().trim(), z.array(text().trim()).max(TARGET_GROUPS_MAX)])
  .transform((v) => (Array.isArray(v) ? v : [v]).filter((n) => n !== ''));

const optionalTags = z.array(text().trim().max(50)).max(50).optional();

/** A template variable of the Cloud API channel: a contact field or a fixed text. */
export const templateVariable = z.union([
  z.object({ field: z.enum(CAMPAIGN_VARIABLES) }),
  z.object({ text: text().max(1024) }),
]);

const campaignFields = {
  name: text({ error: campaignMsg.required })
    .trim()
    .min(1, campaignMsg.required)
    .max(CAMPAIGN_NAME_MAX, campaignMsg.nameTooLong),
  message: text({ error: campaignMsg.required }).trim().max(CAMPAIGN_MESSAGE_MAX, campaignMsg.messageTooLong),
  targetType: z.enum(campaignTargetTypes),
  targetGroups: groupNames,
  /** Ours: narrows `contacts` to contacts carrying any of these tags. */
  targetTags: optionalTags,
  /** Ours: when set in the future (with status scheduled), the campaign starts by itself. */
  scheduledAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Ours: an image sent with the message as its caption (an http(s) URL or one of the account's uploads). */
  imageUrl: z.string().trim().max(2048).nullable().optional(),
  /**
   * Ours: any file sent with the message (one of the account's files as `upload:<id>` or its
   * `/api/uploads/<id>` URL, or an image link); the text is its caption. Not with `imageUrl`.
   */
  mediaUrl: z.string().trim().max(2048).nullable().optional(),
  /** Ours: a location sent right after the message (or alone); null removes it. */
  location: locationInput.nullable().optional(),
  /** Ours: a contact card sent right after the message and the location (or alone); null removes it. */
  contactCard: contactCardInput.nullable().optional(),
  /** Ours, Cloud API channel: an approved template and how its variables are filled. */
  templateName: text().trim().max(512).nullable().optional(),
  templateLanguage: text().trim().max(20).nullable().optional(),
  templateVariables: z.array(templateVariable).max(20).optional(),
  /** Ours: use a saved message (SPEC 'Compor Nova Mensagem') as the content; its text and image replace `message`. */
  savedMessageId: z.uuid({ error: 'Identificador inválido.' }).nullable().optional(),
  /**
   * Ours: the numbers that send it (`/api/connections` ids), the recipients shared among them by
   * their capacity; absent or empty, the account's default number.
   */
  connectionIds: z
    .array(z.uuid({ error: campaignMsg.numberNotFound }))
    .max(CAMPAIGN_NUMBERS_MAX, campaignMsg.tooManyNumbers)
    .optional(),
};

/**
 * The message is required unless a saved message provides it, or a file (`mediaUrl`), a location
 * or a contact card is sent alone.
 */
const messageRequired = (
  body: {
    message?: string;
    savedMessageId?: string | null;
    mediaUrl?: string | null;
    location?: unknown;
    contactCard?: unknown;
  },
  ctx: z.RefinementCtx,
) => {
  if (body.message === '' && !body.savedMessageId && !body.mediaUrl && !body.location && !body.contactCard) {
    ctx.addIssue({ code: 'custom', path: ['message'], message: campaignMsg.required });
  }
};

/** POST /api/campaigns: the spec's payload (name, message, targetType, targetGroups, status) plus our optional fields. */
export const createCampaignBody = z
  .object({
    ...campaignFields,
    message: campaignFields.message.default(''),
    targetType: campaignFields.targetType.default('all'),
    targetGroups: campaignFields.targetGroups.default([]),
    status: z.enum(['draft', 'scheduled']).default('draft'),
  })
  .superRefine(messageRequired);
export type CreateCampaignBody = z.input<typeof createCampaignBody>;

/** PUT /api/campaigns/{id}: any of the fields, while the campaign is a draft or scheduled. */
export const updateCampaignBody = z.object({ ...campaignFields, status: z.enum(['draft', 'scheduled']) }).partial();
export type UpdateCampaignBody = z.input<typeof updateCampaignBody>;

/** POST /api/campaigns/{id}/test: one message to this number (default: the account's own WhatsApp number). */
export const testCampaignBody = z.object({ phone: text().trim().max(30).optional() }).nullish();
/** The 'Enviar teste' dialog's form: the body's number, empty for the account's own one. */
export const testCampaignForm = testCampaignBody.unwrap().unwrap();

export const campaignIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });

export const recipientsQuery = z.object({
  status: z.enum(recipientStatuses).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const recipientsExportQuery = z.object({
  format: z.enum(['csv', 'xlsx']).default('csv'),
  status: z.enum(recipientStatuses).optional(),
});

/**
 * POST /api/campaigns/preview: the message, and (ours, optional) the audience the form has chosen,
 * for the count of its contacts without a name; without one, all the account's contacts.
 */
export const previewBody = z.object({
  message: text().max(CAMPAIGN_MESSAGE_MAX),
  targetType: z.enum(campaignTargetTypes).optional(),
  targetTags: optionalTags,
});

// Answers

export const campaignProgress = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sending: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type CampaignProgress = z.infer<typeof campaignProgress>;

/** One of the account's files a campaign sends. */
export const campaignMedia = z.object({
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  fileName: z.string(),
  size: z.number().int(),
});
export type CampaignMedia = z.infer<typeof campaignMedia>;

export const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  status: z.string(),
  messagesSent: z.number().int(),
  messagesDelivered: z.number().int(),
  targetType: z.enum(campaignTargetTypes),
  targetGroups: z.array(z.string()),
  createdAt: z.string(),
  // Ours, additive.
  targetTags: z.array(z.string()).optional(),
  scheduledAt: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  finishedAt: z.string().nullable().optional(),
  imageUrl: z.string().nullable().optional(),
  /** The file sent with the message (`upload:<id>` or an image link), and what it is when it is one of the account's files. */
  mediaUrl: z.string().nullable().optional(),
  media: campaignMedia.nullable().optional(),
  /** Sent right after the message, then the contact card; null when the campaign has none. */
  location: messageLocationSchema.nullable().optional(),
  contactCard: messageContactCardSchema.nullable().optional(),
  templateName: z.string().nullable().optional(),
  templateLanguage: z.string().nullable().optional(),
  templateVariables: z.array(templateVariable).optional(),
  /** The numbers that send it; empty: the account's default number. */
  connectionIds: z.array(z.string()).optional(),
  /** Why the engine paused it, or null. */
  pauseReason: z.string().nullable().optional(),
  /** While `in_progress`: why it waits. */
  waitingReason: z.enum(campaignWaitReasons).nullable().optional(),
  progress: campaignProgress.optional(),
  /** Expected finish under the current pacing, while it runs. */
  expectedFinishAt: z.string().nullable().optional(),
  messagesRead: z.number().int().optional(),
});
export type Campaign = z.infer<typeof campaignSchema>;
export const campaignList = z.array(campaignSchema);

export const campaignRecipient = z.object({
  id: z.string(),
  recipient: z.string(),
  kind: z.enum(['contact', 'group']),
  name: z.string(),
  status: z.enum(recipientStatuses),
  error: z.string().nullable(),
  attempts: z.number().int(),
  queuedAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  readAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  /** Ours: the number that sent it (or will), and its label; null while no number took it. */
  connectionId: z.string().nullable().optional(),
  sentFrom: z.string().nullable().optional(),
});
export type CampaignRecipient = z.infer<typeof campaignRecipient>;

/** `GET /api/campaigns/{id}/numbers`: progress and delivery per number that sends the campaign. */
export const campaignNumbersResponse = z.object({
  numbers: z.array(
    z.object({
      connectionId: z.string(),
      label: z.string(),
      /** E.164, or null while unknown. */
      phoneNumber: z.string().nullable(),
      kind: z.enum(['personal', 'cloud']),
      /** The number was removed since (its lines stay in the report). */
      removed: z.boolean(),
      /** Why it sends nothing now (`contract/connections.ts` stop reasons), or null. */
      stopReason: z.string().nullable(),
      /** Its lines: given to it (queued or being sent), sent, delivered, read, failed. */
      queued: z.number().int(),
      sent: z.number().int(),
      delivered: z.number().int(),
      read: z.number().int(),
      failed: z.number().int(),
    }),
  ),
  /** Lines no number has taken yet (queued) or that were never to be sent (skipped). */
  unassigned: z.number().int(),
});
export type CampaignNumbers = z.infer<typeof campaignNumbersResponse>;

export const recipientsPage = z.object({
  items: z.array(campaignRecipient),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type RecipientsPage = z.infer<typeof recipientsPage>;

export const campaignActionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  campaign: campaignSchema,
});

export const previewResponse = z.object({
  previews: z.array(z.object({ name: z.string(), phone: z.string(), text: z.string() })),
  /**
   * Ours, added after `previews`: when the message writes the name ({{nome}}, {{primeiro_nome}}),
   * how many of the audience's contacts have none (they get the variable's fallback, or nothing),
   * and the numbers of a few of them; 0 and none otherwise.
   */
  fallbackCount: z.number().int(),
  fallbackExamples: z.array(z.string()),
});

// Audience

/** A query value given once or repeated (`?tags=a&tags=b`): always a list. */
const repeated = (item: z.ZodType<string>, max: number) =>
  z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z.array(item).max(max, `Informe no máximo ${countLabel(max, 'item', 'itens')}.`),
  );

/**
 * GET /api/campaigns/audience (ours): who a campaign with this audience would go to now, counted
 * before it is saved. The fields of the campaign form: `groups` are names, `tags` narrow `contacts`.
 */
export const audienceQuery = z.object({
  targetType: z.enum(campaignTargetTypes).default('all'),
  groups: repeated(text().trim().max(CAMPAIGN_NAME_MAX), TARGET_GROUPS_MAX),
  tags: repeated(text().trim().max(50), 50),
});
export type AudienceQuery = z.input<typeof audienceQuery>;

export const audienceSummary = z.object({
  /** Recipient rows a start would write now. */
  total: z.number().int(),
  /** Of those, the ones that would be sent, and how many are contacts and groups. */
  recipients: z.number().int(),
  contacts: z.number().int(),
  groups: z.number().int(),
  /** The ones that would be skipped, with each reason (pt-BR) and its count. */
  skipped: z.number().int(),
  skippedReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
});
export type AudienceSummary = z.infer<typeof audienceSummary>;

/**
 * When a campaign should finish, by the rules the engine obeys: its pace, the daily limit (what went
 * out today counts) and the business hours and days (contract/send-forecast.ts). Computed on the
 * server, once for the send confirmation and the card alike (server/modules/campaigns/campaign-forecast.ts).
 */
export const campaignForecast = z.object({
  /** ISO instant of the last message; null when the business hours never open. */
  finishAt: z.string().nullable(),
  waitsForDailyLimit: z.boolean(),
  waitsForBusinessHours: z.boolean(),
  /** What the forecast assumed, for the sentence that explains it. */
  channel: z.enum(['personal', 'cloud']),
  dailyLimit: z.number().int(),
  businessStart: z.string(),
  businessEnd: z.string(),
});
export type CampaignForecast = z.infer<typeof campaignForecast>;

/** GET /api/campaigns/{id}/forecast (ours): who a start now would send to, and when it would end. */
export const startForecastResponse = z.object({ audience: audienceSummary, forecast: campaignForecast });
export type StartForecast = z.infer<typeof startForecastResponse>;
