import { z } from 'zod';
import { configureCloudApiInput } from './cloud-api';
import { settingsMsg, whatsappSettingsFields } from './settings';
import { text } from './text';

/**
 * An account's WhatsApp numbers ("connections"): personal numbers (WhatsApp Web protocol, QR or
 * pairing code) and official Cloud API numbers, each with a label, its state, its own sending
 * settings (the account's are the defaults) and a health; one of them is the account's default,
 * the one the spec's routes (`/api/whatsapp-session`, `/api/whatsapp/*`, `/api/whatsapp-business/*`)
 * and a campaign without `connectionIds` use.
 */

export const connectionKinds = ['personal', 'cloud'] as const;
export type ConnectionKind = (typeof connectionKinds)[number];

/** What a number is doing now. `restricted`: WhatsApp limited it (463, 131048, 131056…); `logged_out`: the device was unlinked. */
export const connectionStatuses = [
  'disconnected',
  'connecting',
  'qr',
  'connected',
  'restricted',
  'logged_out',
] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];

export const LABEL_MAX = 40;

/** A restriction WhatsApp reported (463, 131048, 131056) keeps a number out of campaigns this long. */
export const RESTRICTION_MS = 24 * 3_600_000;

/**
 * A number's health turns to 'warning' when its contacts' signals against it in the last 24 h
 * (blocks/undeliverable plus opt-outs written to it) reach this many. A count, not a share of the
 * day's sends: the signals are counted over 24 h and the sends per São Paulo day, so a share would
 * divide figures of different windows (and jump just after midnight, when the day's sends are few);
 * and it is the same scale as the rule of five failures in 24 h.
 */
export const HEALTH_SIGNALS_WARNING = 5;

/** pt-BR texts of the "Números" page and the connections API. */
export const connectionsMsg = {
  title: 'Números',
  subtitle: 'Os números de WhatsApp da sua conta: campanhas podem enviar por vários ao mesmo tempo.',
  labelRequired: 'Informe um nome para o número',
  labelTooLong: `O nome deve ter no máximo ${LABEL_MAX} caracteres`,
  kindInvalid: 'Tipo de número inválido. Use WhatsApp pessoal ou API oficial',
  notFound: 'Número não encontrado.',
  created: 'Número adicionado.',
  updated: 'Número atualizado.',
  restrictionCleared: 'Restrição removida: o número volta a enviar.',
  removed: 'Número removido. O histórico dos envios continua nos relatórios.',
  connectStarted: 'Conexão iniciada. Escaneie o QR code com o WhatsApp.',
  disconnected: 'Número desconectado.',
  keepDefault: 'A conta sempre tem um número padrão: escolha outro como padrão em vez de desmarcar este.',
  cloudHasNoQr: 'Números da API oficial não usam QR code: eles enviam assim que as credenciais são aceitas.',
  cloudNoSession: 'Números da API oficial não têm sessão para desconectar: pause ou remova o número.',
  limitReached: (limit: number) =>
    `Seu plano permite ${limit} ${limit === 1 ? 'número' : 'números'} de WhatsApp. Faça upgrade para conectar mais números.`,
  confirmRemove: 'Remover este número? Ele para de enviar e de receber mensagens; o histórico continua nos relatórios.',
  confirmClearRestriction: (label: string) =>
    `Faça isso só se o WhatsApp já removeu a restrição de ${label}: o número volta a receber envios de campanha na hora. Enviar de novo cedo demais pode fazer o WhatsApp banir o número.`,
  defaultBadge: 'Padrão',
  pausedBadge: 'Pausado',
  defaultLabelPersonal: 'WhatsApp pessoal',
  defaultLabelCloud: 'API oficial',
} as const;

// How many numbers each plan allows lives with the plans (the pricing cards show it): re-exported here.
export { CONNECTION_LIMITS, connectionLimitFor } from './plans';

const labelField = text({ error: connectionsMsg.labelRequired })
  .trim()
  .min(1, connectionsMsg.labelRequired)
  .max(LABEL_MAX, connectionsMsg.labelTooLong);

const F = whatsappSettingsFields.shape;

/**
 * A number's own sending settings. Each field is optional: null (or absent) means "the account's
 * setting" (Configurações › WhatsApp).
 */
export const connectionSettingsSchema = z
  .object({
    messageDelay: F.messageDelay.nullable(),
    dailyLimit: F.dailyLimit.nullable(),
    /** Personal numbers: ramp the pace up over the number's first days (the account's rule when null). */
    warmup: z.boolean({ error: 'Valor inválido' }).nullable(),
    respectBusinessHours: F.respectBusinessHours.nullable(),
    businessStart: F.businessStart.nullable(),
    businessEnd: F.businessEnd.nullable(),
  })
  .partial()
  .refine((s) => !s.businessStart || !s.businessEnd || s.businessStart < s.businessEnd, {
    message: settingsMsg.businessOrder,
    path: ['businessEnd'],
  });
export type ConnectionSettings = z.infer<typeof connectionSettingsSchema>;

/**
 * What paces one number: the account's sending settings with the number's own where it has them
 * (the send loop and the campaign forecast read them alike).
 */
export function withNumberSettings<
  T extends {
    messageDelay: number;
    dailyLimit: number;
    respectBusinessHours: boolean;
    businessStart: string;
    businessEnd: string;
  },
>(account: T, own: ConnectionSettings): T {
  return {
    ...account,
    messageDelay: own.messageDelay ?? account.messageDelay,
    dailyLimit: own.dailyLimit ?? account.dailyLimit,
    respectBusinessHours: own.respectBusinessHours ?? account.respectBusinessHours,
    businessStart: own.businessStart ?? account.businessStart,
    businessEnd: own.businessEnd ?? account.businessEnd,
  };
}

/** `POST /api/connections`: a personal number to pair, or Cloud API credentials checked against the Graph API. */
export const createConnectionInput = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('personal'), label: labelField }),
    configureCloudApiInput.extend({ kind: z.literal('cloud'), label: labelField }),
  ],
  { error: connectionsMsg.kindInvalid },
);
export type CreateConnectionInput = z.input<typeof createConnectionInput>;

/** `PATCH /api/connections/{id}`: only what is sent changes. `isDefault: false` is refused (choose another default). */
export const updateConnectionInput = z.object({
  label: labelField.optional(),
  isDefault: z.boolean({ error: 'Valor inválido' }).optional(),
  paused: z.boolean({ error: 'Valor inválido' }).optional(),
  /** The chatbot answers on this number (opt-outs are honoured on every number regardless). */
  botEnabled: z.boolean({ error: 'Valor inválido' }).optional(),
  settings: connectionSettingsSchema.optional(),
  /**
   * WhatsApp lifted the number's restriction before the 24 h ran out: it takes campaign recipients
   * again at once. A no-op on a number that is not restricted (and `false` changes nothing).
   */
  clearRestriction: z.boolean({ error: 'Valor inválido' }).optional(),
});
export type UpdateConnectionInput = z.input<typeof updateConnectionInput>;

export const connectionIdParams = z.object({ id: z.uuid({ error: connectionsMsg.notFound }) });

/** Why a number's lane sends nothing now (null: it sends, or has nothing to send). */
export const connectionStopReasons = [
  'disconnected',
  'restricted',
  'logged_out',
  'daily_limit',
  'paused',
  'outside_hours',
  'messaging_limit',
] as const;
export type ConnectionStopReason = (typeof connectionStopReasons)[number];

/** The stop reasons that hand a number's queued recipients to the campaign's other numbers. */
export const FAILOVER_REASONS: readonly ConnectionStopReason[] = [
  'disconnected',
  'restricted',
  'logged_out',
  'daily_limit',
  'paused',
];

/** pt-BR: why a number stopped, as the card, the report and the notification say it. */
export const stopReasonLabels: Record<ConnectionStopReason, string> = {
  disconnected: 'desconectado',
  restricted: 'restrito pelo WhatsApp',
  logged_out: 'desconectado no celular ou credenciais recusadas',
  daily_limit: 'limite diário atingido',
  paused: 'pausado',
  outside_hours: 'fora do horário comercial',
  messaging_limit: 'limite de conversas da API oficial atingido',
};

export const connectionHealthSchema = z.object({
  /**
   * `good`: sending normally; `warning`: recent failures, or blocks and opt-outs reaching
   * {@link HEALTH_SIGNALS_WARNING}; `restricted`: WhatsApp limited the number.
   */
  level: z.enum(['good', 'warning', 'restricted']),
  /** Failed sends in the last 24 h. */
  recentFailures: z.number().int(),
  /** The last restriction WhatsApp reported (its code, e.g. 131048), while it lasts. */
  restriction: z.object({ code: z.string(), at: z.string() }).nullable(),
  /** Messages received on the number in the last 24 h. */
  repliesToday: z.number().int(),
  /**
   * Campaign messages from this number that failed in the last 24 h because the contact cannot
   * receive from it: 131026 (undeliverable, which includes a contact who blocked the business) and
   * 131050 (the contact stopped marketing messages). WhatsApp never says who blocked a business.
   */
  blocks: z.number().int().optional(),
  /** Contacts who asked to stop (SAIR…) writing to this number in the last 24 h, and are opted out. */
  optOuts: z.number().int().optional(),
});
export type ConnectionHealth = z.infer<typeof connectionHealthSchema>;

export const connectionView = z.object({
  id: z.string(),
  kind: z.enum(connectionKinds),
  label: z.string(),
  /** E.164 ("+5511987654321"), or null while the number is not known yet. */
  phoneNumber: z.string().nullable(),
  status: z.enum(connectionStatuses),
  isDefault: z.boolean(),
  paused: z.boolean(),
  /** The chatbot answers on this number. */
  botEnabled: z.boolean(),
  health: connectionHealthSchema,
  /** The number's own settings (null fields: the account's). */
  settings: connectionSettingsSchema,
  /** Why its lane sends nothing now, while a campaign has work for it (null: sending or idle). */
  stopReason: z.enum(connectionStopReasons).nullable(),
  /** Campaign messages the number sent today (São Paulo time) and its daily limit in effect. */
  sentToday: z.number().int(),
  dailyLimit: z.number().int(),
  createdAt: z.string(),
  /** Cloud API numbers only. */
  phoneNumberId: z.string().optional(),
  webhookUrl: z.string().nullable().optional(),
  webhookPath: z.string().optional(),
  verifyToken: z.string().optional(),
});
export type ConnectionView = z.infer<typeof connectionView>;

export const connectionsResponse = z.object({
  connections: z.array(connectionView),
  /** How many numbers the plan allows (null: unlimited). */
  limit: z.number().int().nullable(),
});
export type ConnectionsResponse = z.infer<typeof connectionsResponse>;

/** `GET /api/connections/{id}`: the number, with the QR code while a personal number is pairing. */
export const connectionDetailResponse = connectionView.extend({ qr: z.string().nullable() });
export type ConnectionDetail = z.infer<typeof connectionDetailResponse>;

export const connectionSavedResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  connection: connectionView,
});
