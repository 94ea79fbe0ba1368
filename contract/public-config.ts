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
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;

/** 'contato@empresa.com.br' → 'co****@empresa.com.br' */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at < 1) return email ? '****' : '';
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, local.length))}****${email.slice(at)}`;
}

/** A wa.me link with a prefilled text, from any written phone number. */
export function whatsappLink(phone: string, text?: string): string {
  const digits = phone.replace(/\D/g, '');
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
}
