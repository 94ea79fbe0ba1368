import { inflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { contactsMsg, IMPORT_MAX_ROWS } from '../../../contract/contacts';
import { AppError } from '../../errors';

export type FileKind = 'csv' | 'xlsx' | 'xls';

const ALLOWED_EXTENSIONS = /\.(csv|txt|xls|xlsx)$/i;
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Most a spreadsheet may expand to once unzipped, and most entries in its zip. */
export const XLSX_MAX_UNZIPPED_BYTES = 250 * 1024 * 1024;
const XLSX_MAX_ENTRIES = 5_000;

function invalidFile(): AppError {
  return new AppError('VALIDATION', contactsMsg.invalidFile);
}

/**
 * What the file really is, from its first bytes (a renamed executable is not a spreadsheet): a zip
 * (.xlsx), an OLE compound file (.xls) or text (.csv/.txt). The name must still carry one of the
 * accepted extensions.
 */
export function detectFileKind(filename: string, data: Buffer): FileKind {
  if (!ALLOWED_EXTENSIONS.test(filename) || data.length === 0) throw invalidFile();
  if (data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (data.subarray(0, 8).equals(CFB_MAGIC)) return 'xls';
  if (isUtf16(data)) return 'csv';
  // Text has no NUL bytes and few control characters.
  const head = data.subarray(0, 64 * 1024);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) throw invalidFile();
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1a)) control++;
  }
  if (control > head.length / 100) throw invalidFile();
  return 'csv';
}

const isUtf16 = (data: Buffer) => data[0] === 0xff && data[1] === 0xfe;

/** UTF-8 (with or without BOM), UTF-16 with BOM, otherwise Windows-1252 as older Brazilian Excel writes. */
export function decodeText(data: Buffer): string {
  if (isUtf16(data)) return new TextDecoder('utf-16le').decode(data.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

/**
 * Refuses a zip whose entries would expand past the limit (a decompression bomb) before the
 * spreadsheet library opens it. Sizes declared in the central directory are not trusted: each entry
 * is inflated with a hard cap on its output.
 */
export function assertSafeZip(data: Buffer): void {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', contactsMsg.spreadsheetTooLarge);
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 65_557); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalidFile();
  const entries = data.readUInt16LE(eocd + 10);
  let p = data.readUInt32LE(eocd + 16);
  if (entries > XLSX_MAX_ENTRIES || entries === 0xffff || p === 0xffffffff) throw tooLarge();
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) throw invalidFile();
    const method = data.readUInt16LE(p + 10);
    const compressed = data.readUInt32LE(p + 20);
    const declared = data.readUInt32LE(p + 24);
    const local = data.readUInt32LE(p + 42);
    p += 46 + data.readUInt16LE(p + 28) + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    if (declared === 0xffffffff || compressed === 0xffffffff) throw tooLarge();
    total += declared;
    if (total > XLSX_MAX_UNZIPPED_BYTES) throw tooLarge();
    if (method === 0) continue;
    if (method !== 8) throw invalidFile();
    if (local + 30 > data.length || data.readUInt32LE(local) !== 0x04034b50) throw invalidFile();
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    try {
      inflateRawSync(data.subarray(start, start + compressed), { maxOutputLength: Math.max(1, declared) });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw invalidFile();
    }
  }
}

/** Cell text of a spreadsheet value: whole numbers without exponent (phones typed as numbers). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}

/** The rows of the file's first sheet (or the CSV/TXT), as text cells, at most IMPORT_MAX_ROWS + header. */
/**
 * The separator of a text file, read from its first line (the header, or the first data row): the
 * most frequent of ; , tab |. Papaparse's own guess weighs every line and is thrown off by a short
 * file ending in a blank line; undefined lets it guess (a list with one number per line).
 */
export function guessDelimiter(text: string): string | undefined {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  let best: string | undefined;
  let bestCount = 0;
  for (const d of [';', ',', '\t', '|']) {
    const count = firstLine.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

export function readRows(kind: FileKind, data: Buffer): string[][] {
  if (kind === 'csv') {
    const text = decodeText(data).replace(/^\uFEFF/, '');
    const parsed = Papa.parse<string[]>(text, {
      delimiter: guessDelimiter(text) ?? '',
      delimitersToGuess: [';', ',', '\t', '|'],
      skipEmptyLines: false,
      preview: IMPORT_MAX_ROWS + 2,
    });
    return parsed.data;
  }
  if (kind === 'xlsx') assertSafeZip(data);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(data, {
      type: 'buffer',
      dense: true,
      sheetRows: IMPORT_MAX_ROWS + 2,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
  } catch {
    throw invalidFile();
  }
  const sheet = book.SheetNames[0] ? book.Sheets[book.SheetNames[0]] : undefined;
  if (!sheet) return [];
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: true });
  return rows.map((r) => r.map(cellText));
}

export type ColumnMap = { name: number; phone: number; email: number; tags: number };

const headerKey = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

const ALIASES: Record<keyof ColumnMap, string[]> = {
  name: ['nome', 'name', 'nomecompleto', 'fullname', 'contato', 'contact', 'cliente', 'firstname', 'primeironome'],
  phone: [
    'telefone',
    'phone',
    'celular',
    'whatsapp',
    'numero',
    'fone',
    'tel',
    'mobile',
    'phonenumber',
    'telefonecelular',
    'cel',
    'mobilephone',
    'numerodewhatsapp',
    'numerowhatsapp',
  ],
  email: ['email', 'mail', 'emailaddress', 'correioeletronico'],
  tags: ['tags', 'tag', 'etiquetas', 'etiqueta', 'labels', 'label', 'marcadores'],
};

/** Recognises the columns by name (accents and case ignored, English names too); null without a phone column. */
export function mapHeader(row: string[]): ColumnMap | null {
  const keys = row.map(headerKey);
  const find = (field: keyof ColumnMap) => keys.findIndex((k) => ALIASES[field].includes(k));
  const map = { name: find('name'), phone: find('phone'), email: find('email'), tags: find('tags') };
  return map.phone >= 0 ? map : null;
}
