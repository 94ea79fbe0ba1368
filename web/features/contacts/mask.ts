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

/** '+5521998765432' → '+55 21 99876-5432' for display once revealed. */
export function formatPhone(phone: string): string {
  const m = /^\+55(\d\d)(\d{4,5})(\d{4})$/.exec(phone);
  return m ? `+55 ${m[1]} ${m[2]}-${m[3]}` : phone;
}

export const whatsappLink = (phone: string) => `https://wa.me/${phone.replace(/\D/g, '')}`;
