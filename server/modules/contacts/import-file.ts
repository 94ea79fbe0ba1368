import Papa from 'papaparse';
import { contactsMsg, IMPORT_MAX_ROWS } from '../../../contract/contacts';
import { foldText } from '../../../contract/text-match';
import { AppError } from '../../errors';

export type FileKind = 'csv' | 'xlsx' | 'xls';

const ALLOWED_EXTENSIONS = /\.(csv|txt|xls|xlsx)$/i;
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

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

/**
 * UTF-16 text, with or without its byte-order mark. Without one, the NUL pattern gives it away:
 * text in Latin script has a zero in (almost) every high byte — every odd byte in little-endian,
 * every even byte in big-endian — and almost none in the others; binary data has neither pattern.
 */
export function utf16Endianness(data: Buffer): 'utf-16le' | 'utf-16be' | null {
  if (data[0] === 0xff && data[1] === 0xfe) return 'utf-16le';
  if (data[0] === 0xfe && data[1] === 0xff) return 'utf-16be';
  const pairs = Math.min(data.length, 8192) >> 1;
  if (pairs < 2) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (data[i] === 0) zeroEven++;
    if (data[i + 1] === 0) zeroOdd++;
  }
  if (zeroOdd >= pairs * 0.6 && zeroEven <= pairs * 0.05) return 'utf-16le';
  if (zeroEven >= pairs * 0.6 && zeroOdd <= pairs * 0.05) return 'utf-16be';
  return null;
}

const isUtf16 = (data: Buffer) => utf16Endianness(data) !== null;

/** UTF-8 (with or without BOM), UTF-16 (with or without BOM), otherwise Windows-1252 as older Brazilian Excel writes. */
export function decodeText(data: Buffer): string {
  const utf16 = utf16Endianness(data);
  if (utf16) return new TextDecoder(utf16).decode(data).replace(/^\uFEFF/, '');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

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

/** The rows of a CSV/TXT file, as text cells, at most IMPORT_MAX_ROWS + header. */
export function readTextRows(data: Buffer): string[][] {
  const text = decodeText(data).replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(text, {
    delimiter: guessDelimiter(text) ?? '',
    delimitersToGuess: [';', ',', '\t', '|'],
    skipEmptyLines: false,
    preview: IMPORT_MAX_ROWS + 2,
  });
  return parsed.data;
}

export type ColumnMap = { name: number; phone: number; email: number; tags: number };

const headerKey = (s: string) => foldText(s).replace(/[^a-z]/g, '');

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
