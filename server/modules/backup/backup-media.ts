import { BACKUP_MEDIA_BASE64_MAX, BACKUP_MEDIA_MAX_COUNT, backupMsg } from '../../../contract/backup';
import { UPLOAD_MAX_BYTES, uploadIdOf, uploadsMsg } from '../../../contract/uploads';
import type { Turns } from './backup-json';

/**
 * The uploaded images a backup carries: its top-level `media` section, read from the file's bytes
 * and never turned into one JavaScript string. A backup holds up to BACKUP_MEDIA_MAX_MB of base64
 * beside up to BACKUP_MAX_FILE_MB of data; decoded and parsed with the data, the images would
 * double the text in memory and be copied once more by the parser. So the section is cut out of
 * the bytes first (its value replaced by `null`), the rest is parsed as JSON as before, and each
 * image keeps only where its base64 lies in the file, decoded when a restored row needs it.
 *
 * Every character that gives JSON its shape is ASCII, and in UTF-8 no byte of a multi-byte
 * character is below 0x80: the structure is found on the bytes as it would be on the text.
 */

/** One image of the section: where its base64 lies in the file, and the name it had. */
export interface MediaEntry {
  start: number;
  end: number;
  /** A backslash inside the text: never base64 (our export writes none). */
  escaped: boolean;
  fileName: string;
  /** A file of the media store (document, audio, video, sticker) as the export named it; absent for an image. */
  kind?: string;
  /** The SHA-256 (hex) the export gave: a restore checks the bytes against it. */
  sha256?: string;
  /** An audio file the export marked as a voice note. */
  voice?: boolean;
}

/**
 * The file without its images, and the images by upload id (lower case). `refused`: the section is
 * not shaped as the format says, answered once the file is known to be a backup at all.
 */
export interface SplitBackup {
  rest: Buffer;
  media: Map<string, MediaEntry>;
  refused?: MediaRefused;
}

/** A problem with the section's shape: where it is (as describeBackupPath reads it) and what. */
export class MediaRefused extends Error {
  constructor(
    readonly path: PropertyKey[],
    readonly problem: string,
  ) {
    super(problem);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
/** Bytes walked between two looks at the clock. */
const STEP = 1 << 20;
/** The text fields of an image (url, name, type) are short; a longer one is not read. */
const FIELD_MAX_BYTES = 4096;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const MEDIA_KEY = Buffer.from('"media"');

/** Whether `needle` is in `file`, searched natively a megabyte at a time, with a pause when a turn is over. */
async function includesInTurns(file: Buffer, needle: Buffer, turns: Turns): Promise<boolean> {
  for (let at = 0; at < file.length; at += STEP) {
    // Windows overlap by the needle's length less one: a match across two windows is found.
    if (file.subarray(at, at + STEP + needle.length - 1).includes(needle)) return true;
    await turns.next();
  }
  return false;
}

/** Not our structure: the JSON reader that follows will say what is wrong with the file. */
class NotStructure extends Error {}

class ByteWalker {
  private nextLook = STEP;
  constructor(
    private readonly b: Buffer,
    private readonly turns: Turns,
  ) {}

  /** A pause for others when a turn is over, looked at once per STEP bytes walked. */
  private async walked(i: number): Promise<void> {
    this.nextLook = i + STEP;
    await this.turns.next();
  }

  /** After the whitespace at `i` (a hostile file may hold megabytes of it). */
  async skipSpace(i: number): Promise<number> {
    while (i < this.b.length && isSpace(this.b[i])) {
      i++;
      if (i >= this.nextLook) await this.walked(i);
    }
    return i;
  }

  at(i: number): number {
    return i < this.b.length ? this.b[i] : -1;
  }

  /**
   * After the string opening at `i` (a quote): the next quote not escaped, found by the native
   * search (a long base64 text is one memchr, not a loop here).
   */
  stringEnd(i: number): number {
    const b = this.b;
    let q = i;
    for (;;) {
      q = b.indexOf(QUOTE, q + 1);
      if (q < 0) throw new NotStructure();
      let slashes = 0;
      while (b[q - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) return q + 1;
    }
  }

  /** After the value starting at `i`: a string, an array or object (by depth), or a scalar. */
  async valueEnd(i: number): Promise<number> {
    const b = this.b;
    const c = this.at(i);
    if (c === QUOTE) return this.stringEnd(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      let depth = 0;
      for (; i < b.length; i++) {
        const d = b[i];
        if (d === QUOTE) i = this.stringEnd(i) - 1;
        else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
        else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
        if (i >= this.nextLook) await this.walked(i);
      }
      throw new NotStructure();
    }
    const start = i;
    while (i < b.length) {
      const d = b[i];
      if (d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT || isSpace(d)) break;
      i++;
    }
    if (i === start) throw new NotStructure();
    return i;
  }

  /** A short JSON value (a key, a field of an image) as JSON.parse reads it; undefined when it is not JSON. */
  small(start: number, end: number): unknown {
    try {
      return JSON.parse(this.b.toString('utf8', start, end));
    } catch {
      return undefined;
    }
  }
}

/**
 * Cuts the top-level `media` section out of a backup file. A file whose shape cannot be followed
 * (not an object, broken JSON) comes back whole: the JSON reader then refuses it as it always did.
 * Where the key appears more than once, JSON.parse keeps the last: so does this.
 */
export async function splitMedia(file: Buffer, turns: Turns): Promise<SplitBackup> {
  const whole: SplitBackup = { rest: file, media: new Map() };
  // Files without images (every file written before they were carried) are not walked at all. A
  // key spelt with escapes is not found here: JSON.parse reads it and it is ignored (counted as data).
  if (!(await includesInTurns(file, MEDIA_KEY, turns))) return whole;
  const w = new ByteWalker(file, turns);
  const spans: Array<[number, number]> = [];
  try {
    let i = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? 3 : 0;
    i = await w.skipSpace(i);
    if (w.at(i) !== OPEN_OBJECT) return whole;
    i = await w.skipSpace(i + 1);
    if (w.at(i) === CLOSE_OBJECT) return whole;
    for (;;) {
      if (w.at(i) !== QUOTE) return whole;
      const keyEnd = w.stringEnd(i);
      const key = keyEnd - i <= 64 ? w.small(i, keyEnd) : undefined;
      i = await w.skipSpace(keyEnd);
      if (w.at(i) !== COLON) return whole;
      i = await w.skipSpace(i + 1);
      const valueEnd = await w.valueEnd(i);
      if (key === 'media') spans.push([i, valueEnd]);
      i = await w.skipSpace(valueEnd);
      if (w.at(i) === COMMA) {
        i = await w.skipSpace(i + 1);
        continue;
      }
      if (w.at(i) !== CLOSE_OBJECT || (await w.skipSpace(i + 1)) !== file.length) return whole;
      break;
    }
  } catch (err) {
    if (err instanceof NotStructure) return whole;
    throw err;
  }
  if (!spans.length) return whole;
  const parts: Buffer[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    parts.push(file.subarray(at, start), Buffer.from('null'));
    at = end;
  }
  parts.push(file.subarray(at));
  const [start, end] = spans[spans.length - 1];
  const rest = Buffer.concat(parts);
  try {
    return { rest, media: await readEntries(w, file, start, end) };
  } catch (err) {
    if (err instanceof MediaRefused) return { rest, media: new Map(), refused: err };
    // Broken JSON inside the section: the file is not JSON, as JSON.parse would have said.
    if (err instanceof NotStructure) throw new SyntaxError('Unexpected JSON in "media"');
    throw err;
  }
}

/**
 * The images of the section, checked for shape only (a list of objects, each with an `upload:`
 * reference and its base64 as a string, at most BACKUP_MEDIA_MAX_COUNT): a section otherwise
 * shaped refuses the file. Whether each image is one (base64, size, type) is judged when a row
 * needs it, and reported per row. The first image of a reference wins.
 */
async function readEntries(w: ByteWalker, file: Buffer, start: number, end: number): Promise<Map<string, MediaEntry>> {
  const entries = new Map<string, MediaEntry>();
  let i = await w.skipSpace(start);
  if (end - i === 4 && file.toString('latin1', i, end) === 'null') return entries;
  if (w.at(i) !== OPEN_ARRAY) throw new MediaRefused(['media'], backupMsg.mediaNotList);
  i = await w.skipSpace(i + 1);
  if (w.at(i) === CLOSE_ARRAY) return entries;
  for (let k = 0; ; k++) {
    if (k >= BACKUP_MEDIA_MAX_COUNT) throw new MediaRefused(['media'], backupMsg.mediaTooMany);
    if (w.at(i) !== OPEN_OBJECT) throw new MediaRefused(['media', k], backupMsg.mediaNotObject);
    const fields: Record<string, unknown> = {};
    let data: { start: number; end: number; escaped: boolean } | null = null;
    i = await w.skipSpace(i + 1);
    if (w.at(i) !== CLOSE_OBJECT) {
      for (;;) {
        if (w.at(i) !== QUOTE) throw new NotStructure();
        const keyEnd = w.stringEnd(i);
        const key = keyEnd - i <= 64 ? w.small(i, keyEnd) : undefined;
        i = await w.skipSpace(keyEnd);
        if (w.at(i) !== COLON) throw new NotStructure();
        i = await w.skipSpace(i + 1);
        const valueEnd = await w.valueEnd(i);
        if (key === 'data') {
          if (w.at(i) !== QUOTE) throw new MediaRefused(['media', k, 'data'], backupMsg.mediaDataNotText);
          data = { start: i + 1, end: valueEnd - 1, escaped: file.subarray(i + 1, valueEnd - 1).includes(BACKSLASH) };
        } else if (key === 'url' || key === 'fileName' || key === 'contentType' || key === 'kind' || key === 'sha256') {
          const value = valueEnd - i <= FIELD_MAX_BYTES ? w.small(i, valueEnd) : undefined;
          if (typeof value !== 'string') throw new MediaRefused(['media', k, key], backupMsg.mediaFieldInvalid);
          fields[key] = value;
        } else if (key === 'voice') {
          const value = valueEnd - i <= 5 ? w.small(i, valueEnd) : undefined;
          if (typeof value !== 'boolean') throw new MediaRefused(['media', k, key], backupMsg.mediaFieldInvalid);
          fields.voice = value;
        }
        i = await w.skipSpace(valueEnd);
        if (w.at(i) === COMMA) {
          i = await w.skipSpace(i + 1);
          continue;
        }
        if (w.at(i) !== CLOSE_OBJECT) throw new NotStructure();
        break;
      }
    }
    const ref = typeof fields.url === 'string' ? uploadIdOf(fields.url, { uuidOnly: true }) : null;
    if (!ref) throw new MediaRefused(['media', k, 'url'], backupMsg.mediaUrlInvalid);
    if (!data) throw new MediaRefused(['media', k, 'data'], backupMsg.mediaDataNotText);
    const id = ref.toLowerCase();
    if (!entries.has(id)) {
      entries.set(id, {
        ...data,
        fileName: typeof fields.fileName === 'string' ? fields.fileName : '',
        ...(typeof fields.kind === 'string' && fields.kind !== 'image' && { kind: fields.kind }),
        ...(typeof fields.sha256 === 'string' && { sha256: fields.sha256.toLowerCase() }),
        ...(fields.voice === true && { voice: true }),
      });
    }
    i = await w.skipSpace(i + 1);
    if (w.at(i) === COMMA) {
      i = await w.skipSpace(i + 1);
      continue;
    }
    if (w.at(i) !== CLOSE_ARRAY || i + 1 !== end) throw new NotStructure();
    return entries;
  }
}

/**
 * One image's bytes, bounded before anything is decoded: at most the base64 of UPLOAD_MAX_BYTES,
 * whole quartets, and strict base64 (RFC 4648 §4): decoded, then encoded again to the very same
 * text, so a character outside the alphabet, a space, padding in the middle or stray bits are
 * refused instead of skipped as Node's decoder would. Both steps are native (a few milliseconds
 * for the largest image). What the bytes are (JPEG, PNG or WebP by their first bytes) is the
 * upload's own check.
 */
export function decodeMedia(file: Buffer, entry: MediaEntry): { data: Buffer } | { problem: string } {
  const { start, end } = entry;
  const length = end - start;
  if (length === 0) return { problem: uploadsMsg.emptyFile };
  if (length > BACKUP_MEDIA_BASE64_MAX) return { problem: uploadsMsg.tooLarge };
  if (entry.escaped || length % 4 !== 0) return { problem: backupMsg.mediaCorrupted };
  const text = file.toString('latin1', start, end);
  const data = Buffer.from(text, 'base64');
  if (data.toString('base64') !== text) return { problem: backupMsg.mediaCorrupted };
  if (data.length > UPLOAD_MAX_BYTES) return { problem: uploadsMsg.tooLarge };
  return { data };
}
