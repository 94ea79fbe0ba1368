import * as XLSX from '@e965/xlsx';
import { IMPORT_MAX_ROWS } from '../../../contract/contacts';
import { assertSafeZip, ZipRefused } from './zip-guard';

/** Cell text of a spreadsheet value: whole numbers without exponent (phones typed as numbers). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}

export type SpreadsheetOutcome = { ok: true; rows: string[][] } | { ok: false; reason: 'invalid' | 'too_large' };

/**
 * The rows of an .xlsx or .xls file's first sheet as text cells (at most IMPORT_MAX_ROWS + header).
 * Runs inside the spreadsheet worker: an .xlsx passes the zip guard before the library opens it.
 */
export function readSpreadsheetRows(kind: 'xlsx' | 'xls', data: Buffer): SpreadsheetOutcome {
  try {
    if (kind === 'xlsx') assertSafeZip(data);
    const book = XLSX.read(data, {
      type: 'buffer',
      dense: true,
      sheetRows: IMPORT_MAX_ROWS + 2,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
    const sheet = book.SheetNames[0] ? book.Sheets[book.SheetNames[0]] : undefined;
    if (!sheet) return { ok: true, rows: [] };
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: true });
    return { ok: true, rows: rows.map((r) => r.map(cellText)) };
  } catch (err) {
    if (err instanceof ZipRefused) return { ok: false, reason: err.reason };
    // "Invalid array length", "Array buffer allocation failed": the file asks for more than it may have.
    if (err instanceof RangeError && !/call stack/i.test(err.message)) return { ok: false, reason: 'too_large' };
    return { ok: false, reason: 'invalid' };
  }
}
