import type * as XlsxModule from '@e965/xlsx';
import type { FastifyReply } from 'fastify';
import { toCsv } from '../../contract/contacts';
import { saoPauloDay, saoPauloTimestamp } from '../../contract/sao-paulo-time';
import { lazyModule } from './lazy-module';

/** The spreadsheet library (~9 MB resident) loads with the first .xlsx export. */
const loadXlsx = lazyModule<typeof XlsxModule>('@e965/xlsx');

/** Rows of text cells, header first. */
export type Table = string[][];
export type TableFormat = 'csv' | 'xlsx';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * XLSX of one sheet, every cell a text cell (type string, number format '@'): a phone stays
 * '+5521998765432' instead of becoming a number, and a text that starts with '=' is shown, never
 * evaluated — so, unlike CSV, nothing needs an apostrophe.
 */
export function tableToXlsx(table: Table, sheetName: string): Buffer {
  const XLSX = loadXlsx();
  const sheet: XlsxModule.WorkSheet = {};
  let maxCol = 0;
  table.forEach((row, r) => {
    row.forEach((value, c) => {
      sheet[XLSX.utils.encode_cell({ r, c })] = { t: 's', v: value, z: '@' };
      if (c > maxCol) maxCol = c;
    });
  });
  sheet['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(0, table.length - 1), c: maxCol } });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sheetName.slice(0, 31));
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** An ASCII stand-in for old clients: accents dropped, anything else unsafe in a header becomes '-'. */
function asciiFilename(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\w.()-]+/g, '-')
    .replace(/-+/g, '-');
}

/**
 * `Content-Disposition` for a download whose name may carry accents (RFC 6266 with the RFC 5987
 * `filename*` parameter): browsers save 'membros-Promoções.csv' as written; the plain `filename`
 * is the ASCII fallback.
 */
export function attachmentHeader(filename: string): string {
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${asciiFilename(filename)}"; filename*=UTF-8''${encoded}`;
}

/** 'contatos-2026-11-22.csv', dated by the São Paulo day (at 22:00 there, UTC is already tomorrow). */
export const datedName = (base: string, ext: string, now = new Date()) => `${base}-${saoPauloDay(now)}.${ext}`;

/**
 * A time cell of an exported table: São Paulo time with its offset, as the screen shows it
 * ('2026-11-25 16:22:14 -03:00', see saoPauloTimestamp); '' when there is none.
 */
export function tableTime(at: Date | string | null | undefined): string {
  return at ? saoPauloTimestamp(at instanceof Date ? at : new Date(at)) : '';
}

/** Answers a table as a CSV (Brazilian Excel: BOM, ';', formula cells neutralised) or XLSX download. */
export function sendTable(
  reply: FastifyReply,
  opts: { table: Table; format: TableFormat; filename: string; sheet: string },
): FastifyReply {
  reply.header('content-disposition', attachmentHeader(opts.filename));
  reply.header('cache-control', 'no-store');
  if (opts.format === 'xlsx') return reply.type(XLSX_TYPE).send(tableToXlsx(opts.table, opts.sheet));
  return reply.type('text/csv; charset=utf-8').send(toCsv(opts.table));
}
