import { z } from 'zod';

/** What the browser needs from the server's configuration; nothing secret. */
export const publicConfigResponse = z.object({
  productName: z.string(),
  supportWhatsapp: z.string(),
  supportEmailMasked: z.string(),
  paymentUrls: z.object({
    basic: z.string(),
    professional: z.string(),
    enterprise: z.string(),
    premium: z.string(),
  }),
  whatsappDriver: z.enum(['baileys', 'simulator']),
  /** Whether this server sends e-mail ('Esqueci minha senha', e-mail notices); false in production without SMTP_URL. */
  emailAvailable: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;

// Plain helpers live apart from the schemas so the browser can use them without loading zod.
export { maskEmail, whatsappLink } from './links';
