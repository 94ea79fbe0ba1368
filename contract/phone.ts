/** Digits only: '+55 (11) 98765-4321' → '5511987654321'. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** E.164 with its '+' from any spelling ('+55 11 98765-4321', '5511987654321'), or null when it has too few digits. */
export function e164Of(value: string | null | undefined): string | null {
  const digits = value ? phoneDigits(value) : '';
  return digits.length >= 8 ? `+${digits}` : null;
}

/**
 * A phone number for display, from E.164 with or without '+' or any spelling of it:
 * '+5521998765432' and '5521998765432' → '+55 21 99876-5432'; other countries '+' and their digits.
 */
export function formatPhone(value: string): string {
  const digits = phoneDigits(value);
  const m = /^55(\d\d)(\d{4,5})(\d{4})$/.exec(digits);
  if (m) return `+55 ${m[1]} ${m[2]}-${m[3]}`;
  return digits ? `+${digits}` : value;
}
