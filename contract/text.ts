import { z } from 'zod';

/** The one message for a text with characters that cannot be stored or shown (docs/decisions/008). */
export const INVALID_CHARACTERS =
  'O texto contém caracteres inválidos (caracteres de controle). Remova-os e tente novamente.';

/**
 * True when a string holds only what a person can type: no C0 control characters other than tab,
 * line feed and carriage return, no DEL, no C1 controls, and no lone UTF-16 surrogate (which cannot
 * be written as UTF-8). A NUL cannot be stored by PostgreSQL at all.
 */
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(value)) return false;
  return !LONE_SURROGATE.test(value);
}

/**
 * Every string a request may carry (body, query, path). Refused, not cleaned, when it holds a
 * control character or a lone surrogate: silently removing characters would store something other
 * than what was sent, and the user would not know. Chain `.trim()`, `.min()`, `.max()` as on
 * `z.string()`.
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, { message: INVALID_CHARACTERS, abort: true });
}
