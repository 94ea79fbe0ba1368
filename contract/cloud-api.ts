import { z } from 'zod';
import { text } from './text';

/** pt-BR texts of the official WhatsApp Business (Cloud) API panel (SPEC §2, §3, §5, §8). */
export const cloudApiMsg = {
  accessTokenRequired: 'Access Token é obrigatório',
  phoneNumberIdRequired: 'Phone Number ID é obrigatório',
  configured: 'API do WhatsApp Business configurada com sucesso!',
  configureErrorTitle: 'Erro ao configurar API',
  invalidCredentials: 'Credenciais inválidas: a Graph API recusou o Phone Number ID ou o Access Token.',
  graphUnreachable: 'Não foi possível falar com a Graph API. Tente novamente em instantes.',
  notConfigured: 'API Não Configurada',
  notConfiguredHint: 'Configure suas credenciais abaixo',
  connected: 'API Conectada',
  connectedHint: 'Sistema funcionando normalmente',
  verifyFailedTitle: 'Falha na verificação da API',
  verifyRequestFailed: 'Não foi possível verificar a API. Tente novamente.',
  profileFailed: 'Não foi possível carregar o perfil comercial.',
  tokenInvalid: 'O Access Token foi recusado pela Graph API. Configure a API novamente.',
  webhookNeedsSecret: 'Informe o App Secret para ativar o webhook: sem ele as notificações da Meta são recusadas.',
  webhookTooManyEvents: 'Entrega do webhook com eventos demais: no máximo 1.000 mensagens e status por entrega.',
  phoneNumberInUse:
    'Este Phone Number ID já está conectado a outra conta do Disparo. Um número do WhatsApp Business envia por uma conta só: desconecte-o da outra conta ou use outro número.',
} as const;

const optionalText = text()
  .trim()
  .max(512)
  .optional()
  .transform((v) => (v ? v : undefined));

/** Business API credentials (SPEC §3): accessToken and phoneNumberId required, the rest optional. */
export const configureCloudApiInput = z.object({
  accessToken: text({ error: cloudApiMsg.accessTokenRequired })
    .trim()
    .min(1, cloudApiMsg.accessTokenRequired)
    .max(1024),
  phoneNumberId: text({ error: cloudApiMsg.phoneNumberIdRequired })
    .trim()
    .min(1, cloudApiMsg.phoneNumberIdRequired)
    .max(64)
    .regex(/^\d+$/, 'Phone Number ID deve conter apenas números'),
  businessAccountId: optionalText,
  appId: optionalText,
  appSecret: optionalText,
});
export type ConfigureCloudApiInput = z.input<typeof configureCloudApiInput>;

/** What the panel shows about the saved configuration; tokens and the app secret are never returned. */
export const cloudApiConfigResponse = z.object({
  configured: z.boolean(),
  phoneNumberId: z.string().nullable(),
  businessAccountId: z.string().nullable(),
  appId: z.string().nullable(),
  hasAppSecret: z.boolean(),
  /** Path of this account's webhook (the panel prefixes the site's address when PUBLIC_URL is not set). */
  webhookPath: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  verifyToken: z.string().nullable(),
});
export type CloudApiConfig = z.infer<typeof cloudApiConfigResponse>;

export const configureCloudApiResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  config: cloudApiConfigResponse,
});

/** Meta's messaging limit (unique users per moving 24 h), 'unlimited', or null when it cannot be read. */
const messagingLimit = z.union([z.number().int(), z.literal('unlimited')]).nullable();

export const cloudApiHealthResponse = z.object({
  healthy: z.boolean(),
  configured: z.boolean(),
  phoneNumber: z.string().nullable(),
  qualityRating: z.string().nullable(),
  webhookReady: z.boolean(),
  message: z.string().nullable(),
  /** Ours: the number's verified display name, when the Graph API answered. */
  displayName: z.string().nullable().optional(),
  /** Ours: the messaging limit, when the Graph API answered. */
  messagingLimit: messagingLimit.optional(),
  /** Ours: when the Graph API was last asked (ISO 8601); the poll may answer from a short cache. */
  checkedAt: z.string().optional(),
});
export type CloudApiHealth = z.infer<typeof cloudApiHealthResponse>;

/** SPEC §3 business profile, plus the number's quality rating. */
export const businessProfile = z.object({
  profilePicture: z.string().nullable(),
  name: z.string(),
  verified: z.boolean(),
  phone: z.string(),
  status: z.string(),
  qualityRating: z.string().nullable(),
  /** Ours: Meta's messaging limit (unique users per moving 24 h), 'unlimited', or null when it cannot be read. */
  messagingLimit: messagingLimit.optional(),
});
export type BusinessProfile = z.infer<typeof businessProfile>;
export const businessProfileResponse = z.object({ success: z.boolean(), profile: businessProfile });

export const cloudApiTemplatesResponse = z.object({
  templates: z.array(
    z.object({
      name: z.string(),
      language: z.string(),
      status: z.string(),
      category: z.string(),
      /** Ours: the body text with its {{1}}… placeholders, and how many a send must fill. */
      body: z.string().optional(),
      variables: z.number().int().optional(),
    }),
  ),
});

export const cloudApiHealthQuery = z.object({ fresh: z.enum(['1', 'true']).optional() });

export type CloudApiTemplate = z.infer<typeof cloudApiTemplatesResponse>['templates'][number];

/** Shown where a Cloud API campaign is written. */
export const TEMPLATE_WINDOW_NOTE =
  'Na API oficial, fora da janela de 24 horas (contatos que não falaram com você no último dia) a Meta só aceita modelos aprovados. Sem modelo, esses contatos ficam como falha com o motivo.';

/** Meta's developer portal, where the app, token and webhook are set up. */
export const META_DEVELOPERS_URL = 'https://developers.facebook.com/apps';
