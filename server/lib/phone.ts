import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Brazilian area codes (DDD) in use. */
const BR_DDD = new Set(
  '11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99'.split(
    ' ',
  ),
);

/** 55 + DDD + mobile (9 + 8 digits) or landline (2-5 + 7 digits): already canonical, no parsing needed. */
const CANONICAL_BR = /^55(\d\d)(9\d{8}|[2-5]\d{7})$/;

/**
 * Normalises a phone number to E.164 ('+5521998765432'), default region Brazil, or null when it is
 * not a valid number. A Brazilian mobile written without its ninth digit ('(21) 8765-4321') gets it.
 * Imports call this 100,000 times, so the common Brazilian shapes skip the full parser.
 */
export function normalizePhone(input: string): string | null {
  const raw = input.trim();
  if (!raw || raw.length > 40 || /[a-z]/i.test(raw.replace(/^tel:/i, ''))) return null;
  let digits = raw.replace(/\D/g, '');
  const international = raw.startsWith('+') || raw.startsWith('00');
  if (raw.startsWith('00')) digits = digits.slice(2);
  if (!international) {
    // National forms: optional trunk 0 and carrier code ('0 21 ...', '0xx21', '021'), then DDD + number.
    if (digits.startsWith('0') && (digits.length === 11 || digits.length === 12)) digits = digits.slice(1);
    else if (digits.startsWith('0') && (digits.length === 13 || digits.length === 14)) digits = digits.slice(3);
    if (digits.length === 10 || digits.length === 11) digits = `55${digits}`;
  }
  if (digits.startsWith('55') && digits.length === 12) {
    // DDD + 8 digits starting 6-9 is a mobile written before the ninth digit was added.
    const ddd = digits.slice(2, 4);
    const rest = digits.slice(4);
    if (/^[6-9]/.test(rest)) digits = `55${ddd}9${rest}`;
  }
  const fast = CANONICAL_BR.exec(digits);
  if (fast) return BR_DDD.has(fast[1]) ? `+${digits}` : null;
  if (digits.startsWith('55')) return null;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed?.isValid()) return null;
  return parsed.number;
}
