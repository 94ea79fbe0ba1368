/** '+5521998765432' → '+55 21 9••••-••32': enough to recognise a contact without showing the number. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 6) return '••••';
  const country = digits.startsWith('55') ? '+55 ' : '+';
  const rest = digits.startsWith('55') ? digits.slice(2) : digits;
  return `${country}${rest.slice(0, 2)} ${rest.slice(2, 3)}${'•'.repeat(Math.max(0, rest.length - 5))}${rest.slice(-2)}`;
}

/** 'maria@example.com' → 'm•••@example.com'. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  if (!domain) return '•••';
  return `${local.slice(0, 1)}•••@${domain}`;
}

export const whatsappLink = (phone: string) => `https://wa.me/${phone.replace(/\D/g, '')}`;
