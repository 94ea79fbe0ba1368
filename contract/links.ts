/** Contact helpers with no dependency, for the server and the smallest browser pages alike. */

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
