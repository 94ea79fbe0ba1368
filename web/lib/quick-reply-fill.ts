import { renderMessage, seededRandom } from '#contract/personalize';
import { formatPhone } from '#contract/phone';
import { QUICK_REPLY_SHORTCUT_MAX, type QuickReply } from '#contract/quick-replies';

/** What the composer knows of the conversation's contact: its name (null when it has none) and number. */
export interface QuickReplyContact {
  name: string | null | undefined;
  /** E.164 digits, as the conversation names the contact. */
  phone: string;
  email?: string | null;
}

/**
 * A quick reply's text as this contact gets it, filled as a campaign fills it (contract/personalize):
 * `{{nome}}`, `{{primeiro_nome}}`, `{{telefone}}` (written as campaigns write it) and `{{email}}`,
 * each value missing giving its fallback (`{{primeiro_nome|cliente}}`) or nothing; one option of each
 * spintax group, the same one every time for the same contact.
 */
export function fillQuickReply(text: string, contact: QuickReplyContact): string {
  return renderMessage(
    text,
    { name: contact.name ?? '', phone: contact.phone ? formatPhone(contact.phone) : '', email: contact.email ?? null },
    seededRandom(contact.phone),
  );
}

/** A `/query` being typed: the slash at `start`, the shortcut's characters up to `end`, `query` before the caret. */
export interface SlashQuery {
  start: number;
  end: number;
  /** What follows the slash up to the caret, in lower case (shortcuts are kept in lower case). */
  query: string;
}

/** The characters of a shortcut (contract/quick-replies.ts). */
const SHORTCUT_CHAR = /^[\p{L}\p{N}_-]$/u;
const WHITESPACE = /^\s$/;
const isShortcutChar = (c: string | undefined) => c !== undefined && SHORTCUT_CHAR.test(c);

/**
 * Whether the caret stands in a `/query` typed at the start of the text or after whitespace, and
 * which: `Olá /boas` with the caret at the end gives `boas`; `http://x`, `a/b` and a word longer
 * than a shortcut give null. It looks back at most one shortcut's length from the caret, so its cost
 * does not grow with the text.
 */
export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  if (!Number.isInteger(caret) || caret < 1 || caret > text.length) return null;
  let start = caret;
  while (start > 0 && isShortcutChar(text[start - 1])) {
    if (caret - start >= QUICK_REPLY_SHORTCUT_MAX) return null;
    start--;
  }
  const slash = start - 1;
  if (slash < 0 || text[slash] !== '/') return null;
  if (slash > 0 && !WHITESPACE.test(text[slash - 1])) return null;
  let end = caret;
  while (end < text.length && end - start < QUICK_REPLY_SHORTCUT_MAX && isShortcutChar(text[end])) end++;
  return { start: slash, end, query: text.slice(start, caret).toLowerCase() };
}

/** The quick replies whose shortcut starts with the query (all of them for a bare `/`), in the list's order. */
export function matchingQuickReplies(replies: readonly QuickReply[], query: string): QuickReply[] {
  const q = query.toLowerCase();
  return replies.filter((r) => r.shortcut.startsWith(q));
}

/** The composer's text with the `/query` replaced by the reply's filled text, and where the caret goes: after it. */
export function applyQuickReply(text: string, at: Pick<SlashQuery, 'start' | 'end'>, filled: string) {
  return { text: text.slice(0, at.start) + filled + text.slice(at.end), caret: at.start + filled.length };
}
