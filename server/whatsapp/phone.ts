/** Digits only: '+55 (11) 98765-4321' → '5511987654321'. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** A Brazilian-looking display form of E.164 digits: '5511987654321' → '+55 11 98765-4321'. */
export function formatPhone(digits: string): string {
  const d = phoneDigits(digits);
  const m = /^55(\d{2})(\d{4,5})(\d{4})$/.exec(d);
  if (m) return `+55 ${m[1]} ${m[2]}-${m[3]}`;
  return `+${d}`;
}
