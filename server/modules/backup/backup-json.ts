import { performance } from 'node:perf_hooks';

/** How long work may hold the thread before other requests get their turn. */
const TURN_MS = 10;

/**
 * Long work on the thread that answers everybody, cut into turns: `due` says the current turn has
 * lasted its time, `pause()` lets what is waiting (other requests, their I/O) run before the next.
 */
export class Turns {
  private started = performance.now();
  constructor(private readonly ms = TURN_MS) {}

  get due(): boolean {
    return performance.now() - this.started >= this.ms;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }

  /** A pause only when the turn is over. */
  async next(): Promise<void> {
    if (this.due) await this.pause();
  }
}

/** The text is beyond the bounds below (text that is not JSON is a SyntaxError, as from JSON.parse). */
export class JsonRefused extends Error {}

/**
 * Bounds on a backup's JSON, checked on its text before anything is parsed. A parser builds every
 * value it reads: 50 MB of `{},{},…` are sixteen million objects (over a gigabyte and many seconds),
 * and `[[[[…` millions deep costs as much. A backup this server writes is a few levels deep, spends
 * more than 60 bytes on each object or array (a contact is two, a recipient line one) and has a few
 * dozen keys per object.
 */
export const JSON_LIMITS = { depth: 32, containers: 1_000_000, items: 5_000_000, keys: 1_000 };

/**
 * Text parsed at once by JSON.parse: a few milliseconds of the thread. Larger arrays and objects
 * are cut into runs of whole items of about this size, parsed one run per call.
 */
const PIECE_CHARS = 128 * 1024;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * JSON.parse of a large text without holding the thread: the same values (or a SyntaxError where
 * JSON.parse throws one), built a piece at a time with a pause whenever a turn is over. One pass
 * over the text checks the bounds above and notes where each large array or object ends; large
 * ones are then cut between their items, every piece parsed by JSON.parse and the separators
 * between pieces checked here, so each character is read a bounded number of times.
 */
export async function parseJsonInTurns(text: string, turns: Turns, pieceChars = PIECE_CHARS): Promise<unknown> {
  const ends = await scanShape(text, turns, pieceChars);
  const n = text.length;

  const skipSpace = (i: number) => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    return i;
  };
  const syntax = (i: number): never => {
    throw new SyntaxError(`Unexpected JSON at position ${i}`);
  };
  const stringEnd = (i: number) => {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return i + 1;
    }
    return syntax(n);
  };
  /** Where the value starting at `i` ends: JSON.parse or a split checks what is inside. */
  const valueEnd = (i: number): number => {
    const c = text.charCodeAt(i);
    if (c === 0x22) return stringEnd(i);
    if (c === 0x7b || c === 0x5b) {
      const known = ends.get(i);
      if (known !== undefined) return known;
      let depth = 0;
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) i = stringEnd(i) - 1;
        else if (d === 0x7b || d === 0x5b) depth++;
        else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i + 1;
      }
      return syntax(n);
    }
    const start = i;
    for (; i < n; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x2c || d === 0x5d || d === 0x7d || isSpace(d)) break;
    }
    return i > start ? i : syntax(i);
  };
  /** After an item: a comma and the next item, or the container's end (`close`, the last character). */
  const afterItem = (i: number, close: number, end: number): number | null => {
    i = skipSpace(i);
    if (i === end - 1 && text.charCodeAt(i) === close) return null;
    if (i >= end - 1 || text.charCodeAt(i) !== 0x2c) return syntax(i);
    return skipSpace(i + 1);
  };

  const parse = async (start: number, end: number): Promise<unknown> => {
    const c = text.charCodeAt(start);
    if (end - start <= pieceChars || (c !== 0x5b && c !== 0x7b)) return JSON.parse(text.slice(start, end));
    await turns.next();
    return c === 0x5b ? parseArray(start, end) : parseObject(start, end);
  };

  const parseArray = async (start: number, end: number): Promise<unknown[]> => {
    if (text.charCodeAt(end - 1) !== 0x5d) syntax(end - 1);
    const out: unknown[] = [];
    let i: number | null = skipSpace(start + 1);
    if (i === end - 1) return out;
    // A run of small items, parsed together.
    let runStart = -1;
    let runEnd = -1;
    const flush = async () => {
      if (runStart < 0) return;
      for (const v of JSON.parse(`[${text.slice(runStart, runEnd)}]`) as unknown[]) out.push(v);
      runStart = -1;
      await turns.next();
    };
    while (i !== null) {
      const itemEnd = valueEnd(i);
      if (itemEnd > end - 1) syntax(end - 1);
      if (itemEnd - i > pieceChars) {
        await flush();
        out.push(await parse(i, itemEnd));
      } else {
        if (runStart >= 0 && itemEnd - runStart > pieceChars) await flush();
        if (runStart < 0) runStart = i;
        runEnd = itemEnd;
      }
      i = afterItem(itemEnd, 0x5d, end);
    }
    await flush();
    return out;
  };

  const parseObject = async (start: number, end: number): Promise<Record<string, unknown>> => {
    if (text.charCodeAt(end - 1) !== 0x7d) syntax(end - 1);
    const out: Record<string, unknown> = {};
    let i: number | null = skipSpace(start + 1);
    if (i === end - 1) return out;
    while (i !== null) {
      if (text.charCodeAt(i) !== 0x22) syntax(i);
      const keyEnd = stringEnd(i);
      const key = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipSpace(keyEnd);
      if (text.charCodeAt(i) !== 0x3a) syntax(i);
      i = skipSpace(i + 1);
      if (i >= end - 1) syntax(i);
      const valueStop = valueEnd(i);
      if (valueStop > end - 1) syntax(end - 1);
      // As JSON.parse defines it: an own property even for "__proto__", the last of a repeated key.
      Object.defineProperty(out, key, {
        value: await parse(i, valueStop),
        writable: true,
        enumerable: true,
        configurable: true,
      });
      i = afterItem(valueStop, 0x7d, end);
    }
    return out;
  };

  const start = skipSpace(0);
  if (start >= n) syntax(n);
  const end = valueEnd(start);
  if (skipSpace(end) !== n) syntax(end);
  return parse(start, end);
}

/**
 * The bounds of JSON_LIMITS, checked in turns, on the text as written (a string's content does not
 * count); answers where each array or object longer than `pieceChars` ends, by where it starts.
 */
async function scanShape(text: string, turns: Turns, pieceChars: number): Promise<Map<number, number>> {
  const tooComplex = () => new JsonRefused('too complex for a backup');
  const ends = new Map<number, number>();
  // Per open level: where it opened, and the keys of an object so far (-1 for an array).
  const opened: number[] = [];
  const keys: number[] = [];
  let depth = 0;
  let containers = 0;
  let items = 0;
  const step = 1 << 20;
  for (let i = 0, pauseAt = step; i < text.length; i++) {
    if (i >= pauseAt) {
      pauseAt = i + step;
      await turns.next();
    }
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > JSON_LIMITS.depth || ++containers > JSON_LIMITS.containers) throw tooComplex();
      opened[depth] = i;
      keys[depth] = c === 0x7b ? 1 : -1;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0 && i + 1 - opened[depth] > pieceChars) ends.set(opened[depth], i + 1);
      depth--;
    } else if (c === 0x2c) {
      if (++items > JSON_LIMITS.items) throw tooComplex();
      if (depth > 0 && keys[depth] >= 0 && ++keys[depth] > JSON_LIMITS.keys) throw tooComplex();
    }
  }
  return ends;
}

/**
 * UTF-8 bytes to text a megabyte at a time: the text one decode would give (a leading byte-order
 * mark dropped), or the TypeError it would throw on a malformed sequence.
 */
export async function decodeUtf8InTurns(data: Uint8Array, turns: Turns): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const step = 1 << 20;
  const parts: string[] = [];
  for (let at = 0; at < data.length; at += step) {
    parts.push(decoder.decode(data.subarray(at, at + step), { stream: at + step < data.length }));
    await turns.next();
  }
  return parts.join('');
}
