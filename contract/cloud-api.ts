import { z } from 'zod';
import { text } from './text';

/** pt-BR texts of the official WhatsApp Business (Cloud) API panel (SPEC §2, §3, §5, §8). */
export const businessMsg = {
  accessTokenRequired: 'Access Token é obrigatório',
  phoneNumberIdRequired: 'Phone Number ID é obrigatório',
  configured: 'API do WhatsApp Business configurada com sucesso!',
  configureErrorTitle: 'Erro ao configurar API',
  invalidCredentials: 'Credenciais inválidas: a Graph API recusou o Phone Number ID ou o Access Token.',
  graphUnreachable: 'Não foi possível falar com a Graph API. Tente novamente em instantes.',
  notConfigured: 'API Não Configurada',
  profileFailed: 'Não foi possível carregar o perfil comercial.',
  tokenInvalid: 'O Access Token foi recusado pela Graph API. Configure a API novamente.',
  webhookNeedsSecret: 'Informe o App Secret para ativar o webhook: sem ele as notificações da Meta são recusadas.',
} as const;

const optionalText = text()
  .trim()
  .max(512)
  .optional()
  .transform((v) => (v ? v : undefined));

/** Business API credentials (SPEC §3): accessToken and phoneNumberId required, the rest optional. */
export const configureBusinessInput = z.object({
  accessToken: text({ error: businessMsg.accessTokenRequired })
    .trim()
    .min(1, businessMsg.accessTokenRequired)
    .max(1024),
  phoneNumberId: text({ error: businessMsg.phoneNumberIdRequired })
    .trim()
    .min(1, businessMsg.phoneNumberIdRequired)
    .max(64)
    .regex(/^\d+$/, 'Phone Number ID deve conter apenas números'),
  businessAccountId: optionalText,
  appId: optionalText,
  appSecret: optionalText,
});
export type ConfigureBusinessInput = z.input<typeof configureBusinessInput>;

/** What the panel shows about the saved configuration; tokens and the app secret are never returned. */
export const businessConfigResponse = z.object({
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
export type BusinessConfig = z.infer<typeof businessConfigResponse>;

export const configureBusinessResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  config: businessConfigResponse,
});

export const businessHealthResponse = z.object({
  healthy: z.boolean(),
  configured: z.boolean(),
  phoneNumber: z.string().nullable(),
  qualityRating: z.string().nullable(),
  webhookReady: z.boolean(),
  message: z.string().nullable(),
});
export type BusinessHealth = z.infer<typeof businessHealthResponse>;

/** SPEC §3 business profile, plus the number's quality rating. */
export const businessProfile = z.object({
  profilePicture: z.string().nullable(),
  name: z.string(),
  verified: z.boolean(),
  phone: z.string(),
  status: z.string(),
  qualityRating: z.string().nullable(),
});
export type BusinessProfile = z.infer<typeof businessProfile>;
export const businessProfileResponse = z.object({ success: z.boolean(), profile: businessProfile });

export const businessTemplatesResponse = z.object({
  templates: z.array(z.object({ name: z.string(), language: z.string(), status: z.string(), category: z.string() })),
});

export const businessHealthQuery = z.object({ fresh: z.enum(['1', 'true']).optional() });

/** Meta's developer portal, where the app, token and webhook are set up. */
export const META_DEVELOPERS_URL = 'https://developers.facebook.com/apps';
