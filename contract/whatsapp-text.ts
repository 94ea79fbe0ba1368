/**
 * WhatsApp's own text formatting, read the way WhatsApp reads it, for previews that show a message
 * as it arrives: `*bold*`, `_italic_`, `~strike~`, ```` ```monospace``` ```` (which may span lines,
 * with nothing formatted inside) and `` `inline code` ``.
 *
 * The rules WhatsApp applies, and so these:
 * - A marker opens at the start of the text or after a character that is not a letter or a digit,
 *   and only before a character that is not a space; it closes only after a character that is not
 *   a space, and at the end or before a character that is not a letter or a digit. So `2*3*4`,
 *   `snake_case_name`, `5 * 3 * 2` and `* item` stay as written.
 * - Something must lie between the two markers (`**` is two asterisks), and bold, italic and strike
 *   never cross a line break.
 * - The first closing marker closes (`*a* b*` is bold `a`, then ` b*`). Styles nest (`*_x_*`), but
 *   never cross: a marker closing while another style opened after it is still open leaves that one
 *   as written (`*a _b* c_` is bold `a _b`, then ` c_`).
 *
 * The text is read once, left to right, whatever its markers (DESIGN §3): each line keeps at most
 * one open marker of each kind, and each search for a closing backtick starts where the last ended.
 */

/** How WhatsApp writes each style: the characters the server's HTML conversion wraps text in, too. */
export const WHATSAPP_MARKERS = { bold: '*', italic: '_', strike: '~', mono: '```', code: '`' } as const;

/** A piece of text with the styles it is shown in; `mono` text is shown exactly as written. */
export interface WhatsappRun {
  text: string;
  bold?: true;
  italic?: true;
  strike?: true;
  /** A ```monospace``` block or an `inline code` span. */
  mono?: 'block' | 'inline';
}

/** Counts the tokenizer's unit steps (characters looked at), so tests can hold it to linear time. */
export interface TokenizeMeter {
  steps: number;
}

const FENCE = WHATSAPP_MARKERS.mono;
const BACKTICK = WHATSAPP_MARKERS.code;

/** Styles as bits; the index of each in `BITS` is the marker's role code minus one. */
const BITS = [1, 2, 4] as const;
const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
/** The style index (0 bold, 1 italic, 2 strike) of a marker character, or -1. */
const styleIndex = (c: number) => (c === 42 ? 0 : c === 95 ? 1 : c === 126 ? 2 : -1);

/** Roles of characters: 1–3 opens style index 0–2, -1 to -3 closes it; a code span's backticks. */
const CODE_OPEN = 10;
const CODE_CLOSE = 11;

const SPACE = /\s/;
const WORD = /[\p{L}\p{N}]/u;

class Tokenizer {
  readonly runs: WhatsappRun[] = [];
  /** The styles of the last run, so that a neighbour with the same ones joins it; -1 after monospace. */
  private lastMask = -1;
  private readonly role: Int8Array;
  /** The next backtick at or after `tickFrom` (or the text's length): every search starts where the last ended. */
  private tick = -1;
  private tickFrom = 0;

  constructor(
    private readonly s: string,
    private readonly meter: TokenizeMeter,
  ) {
    this.role = new Int8Array(s.length);
  }

  private isWord(i: number): boolean {
    if (i < 0 || i >= this.s.length) return false;
    const c = this.s.charCodeAt(i);
    if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    return WORD.test(this.s[i]);
  }

  private isSpace(i: number): boolean {
    const c = this.s.charCodeAt(i);
    if (c < 128) return c === 32 || (c >= 9 && c <= 13);
    return SPACE.test(this.s[i]);
  }

  /** May the marker at `i` open: after a start or a non-word character, before a non-space one on its line. */
  private canOpen(i: number, end: number): boolean {
    return !this.isWord(i - 1) && i + 1 < end && !this.isSpace(i + 1);
  }

  /**
   * May the marker at `i` close: after a non-space character, before an end or a non-word one. What
   * follows a line's end is a line break, a fence or nothing: never a word character.
   */
  private canClose(i: number, start: number): boolean {
    return i > start && !this.isSpace(i - 1) && !this.isWord(i + 1);
  }

  private nextBacktick(from: number): number {
    if (from < this.tickFrom || from > this.tick) {
      const at = this.s.indexOf(BACKTICK, from);
      this.tick = at === -1 ? this.s.length : at;
      this.meter.steps += this.tick - from;
    }
    this.tickFrom = from;
    return this.tick;
  }

  push(from: number, to: number, mask: number, mono?: WhatsappRun['mono']): void {
    if (to <= from) return;
    const text = this.s.slice(from, to);
    const last = this.runs[this.runs.length - 1];
    if (!mono && last && this.lastMask === mask) {
      last.text += text;
      return;
    }
    const run: WhatsappRun = { text };
    if (mask & BOLD) run.bold = true;
    if (mask & ITALIC) run.italic = true;
    if (mask & STRIKE) run.strike = true;
    if (mono) run.mono = mono;
    this.runs.push(run);
    this.lastMask = mono ? -1 : mask;
  }

  /** The `inline code` spans of a line: a backtick that may open, up to the very next one if it may close. */
  private codeSpans(start: number, end: number): void {
    let open = this.nextBacktick(start);
    while (open < end) {
      const close = this.nextBacktick(open + 1);
      if (close >= end) return;
      if (close > open + 1 && this.canOpen(open, end) && this.canClose(close, start)) {
        this.role[open] = CODE_OPEN;
        this.role[close] = CODE_CLOSE;
        open = this.nextBacktick(close + 1);
      } else {
        open = close;
      }
    }
  }

  /** One line, `s[start, end)` (no line break inside): its markers paired, then its runs. */
  line(start: number, end: number): void {
    const { s, role, meter } = this;
    this.codeSpans(start, end);
    /** Where each style's open marker is, or -1; the open ones in order, innermost last. */
    const openAt = [-1, -1, -1];
    const stack: number[] = [];
    for (let i = start; i < end; i++) {
      meter.steps++;
      if (role[i] === CODE_OPEN) {
        while (role[++i] !== CODE_CLOSE) meter.steps++;
        continue;
      }
      const k = styleIndex(s.charCodeAt(i));
      if (k < 0) continue;
      const opened = openAt[k];
      if (opened !== -1) {
        if (i > opened + 1 && this.canClose(i, start)) {
          // Styles opened inside this one and still open stay as written.
          for (;;) {
            const at = stack.pop() as number;
            openAt[styleIndex(s.charCodeAt(at))] = -1;
            if (at === opened) break;
          }
          role[opened] = k + 1;
          role[i] = -(k + 1);
        }
      } else if (this.canOpen(i, end)) {
        stack.push(i);
        openAt[k] = i;
      }
    }

    let mask = 0;
    let from = start;
    for (let i = start; i < end; i++) {
      meter.steps++;
      const r = role[i];
      if (r === 0) continue;
      this.push(from, i, mask);
      if (r === CODE_OPEN) {
        let j = i + 1;
        while (role[j] !== CODE_CLOSE) j++;
        this.push(i + 1, j, mask, 'inline');
        i = j;
      } else if (r > 0) {
        mask |= BITS[r - 1];
      } else {
        mask &= ~BITS[-r - 1];
      }
      from = i + 1;
    }
    this.push(from, end, mask);
  }

  /** Text outside monospace blocks, `s[start, end)`, line by line. */
  text(start: number, end: number): void {
    let at = start;
    for (;;) {
      const lf = this.s.indexOf('\n', at);
      const lineEnd = lf === -1 || lf >= end ? end : lf;
      this.line(at, lineEnd);
      if (lineEnd === end) return;
      this.push(lineEnd, lineEnd + 1, 0);
      at = lineEnd + 1;
    }
  }
}

/**
 * A message as the runs WhatsApp shows: each piece of text with its styles, the markers that
 * format gone, everything else (markers that do not, line breaks, spaces) as written.
 */
export function tokenizeWhatsapp(text: string, meter: TokenizeMeter = { steps: 0 }): WhatsappRun[] {
  const t = new Tokenizer(text, meter);
  let start = 0;
  let open = text.indexOf(FENCE);
  while (open !== -1) {
    const close = text.indexOf(FENCE, open + FENCE.length);
    if (close === -1) break;
    meter.steps += close - open;
    if (text.slice(open + FENCE.length, close).trim() === '') {
      // Nothing to show in monospace: the first fence is text, the second may open a block.
      open = close;
      continue;
    }
    t.text(start, open);
    t.push(open + FENCE.length, close, 0, 'block');
    start = close + FENCE.length;
    open = text.indexOf(FENCE, start);
  }
  t.text(start, text.length);
  return t.runs;
}
