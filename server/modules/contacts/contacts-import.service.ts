import { sql } from 'drizzle-orm';
import {
  contactsMsg,
  IMPORT_ERROR_VALUE_MAX,
  IMPORT_MAX_ROWS,
  type ImportColumn,
  type ImportResult,
  type ImportRowError,
  parseTags,
} from '../../../contract/contacts';
import { contactLimitFor, planLabel } from '../../../contract/plans';
import { accountSql } from '../../db/account-scope';
import { type BulkValue, bulkInsert } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { AppError } from '../../errors';
import type { AppState } from '../../lib/app-state';
import { timeOrderedIds } from '../../lib/ids';
import { normalizePhone } from '../../lib/phone';
import { record } from '../../records/events';
import type { ErrorLog } from '../../records/notify';
import { type Account, contactRows, lockRemainingSlots, planLimitMessage } from './contacts.service';
import { contactsChanged, contactsState } from './contacts-state';
import { type ColumnMap, detectFileKind, mapHeader, readTextRows } from './import-file';

const LOOKUP_BATCH = 10_000;
const VACUUM_AFTER_ROWS = 5_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Candidate {
  /** The row's index in the file (its error line is made from it, only when needed). */
  index: number;
  name: string;
  phone: string;
  email: string;
  tags: string[];
}

/**
 * A leading apostrophe is how our export (and Excel users) neutralise formulas: not part of the value.
 * NUL characters cannot be stored in a PostgreSQL text and are never meant.
 */
const clean = (s: string | undefined) => {
  if (!s) return '';
  // Most cells have neither: skip the two copies a replace would make.
  const unquoted = s.charCodeAt(0) === 39 ? s.slice(1) : s;
  return (unquoted.includes('\0') ? unquoted.replaceAll('\0', '') : unquoted).trim();
};

function splitTags(cell: string): string[] {
  return parseTags(cell.split(/[,;|]/));
}

/** A cell as an error quotes it: at most IMPORT_ERROR_VALUE_MAX characters, a cut one ending with '…'. */
function quoted(value: string): string {
  if (value.length <= IMPORT_ERROR_VALUE_MAX) return value;
  let cut = value.slice(0, IMPORT_ERROR_VALUE_MAX - 1);
  // Never half of an emoji (a lone surrogate).
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Columns of a file without a header row: one column is the phone; otherwise Nome, Telefone, Email, Tags. */
function positional(width: number): ColumnMap {
  return width <= 1 ? { name: -1, phone: 0, email: -1, tags: -1 } : { name: 0, phone: 1, email: 2, tags: 3 };
}

/** Reads and checks every row; nothing touches the database yet. Spreadsheets are read in a worker. */
async function parseFile(state: AppState, accountId: string, filename: string, data: Buffer) {
  const kind = detectFileKind(filename, data);
  const rows =
    kind === 'csv' ? readTextRows(data) : await contactsState(state).spreadsheets.read(accountId, kind, data);
  const firstIndex = rows.findIndex((r) => r.some((c) => String(c).trim() !== ''));
  if (firstIndex < 0) return { failure: contactsMsg.emptyFile } as const;
  let columns = mapHeader(rows[firstIndex]);
  let start = firstIndex + 1;
  if (!columns) {
    columns = positional(rows[firstIndex].length);
    if (!normalizePhone(clean(rows[firstIndex][columns.phone]))) return { failure: contactsMsg.noPhoneColumn } as const;
    start = firstIndex;
  }
  if (rows.length - start > IMPORT_MAX_ROWS) return { failure: contactsMsg.tooManyRows(IMPORT_MAX_ROWS) } as const;

  const candidates: Candidate[] = [];
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const cell = (r: string[], i: number) => (i >= 0 ? clean(r[i]) : '');
  // The row as an error line shows it, quoting the value of the column it was refused for; made
  // only for rows that are refused.
  const rowError = (i: number, reason: string, column: ImportColumn): ImportRowError => {
    const r = rows[i];
    return {
      row: i + 1,
      reason,
      name: cell(r, columns.name).slice(0, 200),
      phone: cell(r, columns.phone).slice(0, 60),
      email: cell(r, columns.email).slice(0, 200),
      tags: cell(r, columns.tags).slice(0, 500),
      column,
      value: quoted(cell(r, columns[column])),
    };
  };
  for (let i = start; i < rows.length; i++) {
    const r = rows[i];
    const rawPhone = cell(r, columns.phone);
    const rawName = cell(r, columns.name);
    const rawEmail = cell(r, columns.email);
    const rawTags = cell(r, columns.tags);
    if (!rawName && !rawPhone && !rawEmail && !rawTags) continue;
    if (!rawPhone) {
      errors.push(rowError(i, contactsMsg.rowMissingPhone, 'phone'));
      continue;
    }
    const phone = normalizePhone(rawPhone.slice(0, 60));
    if (!phone) {
      errors.push(rowError(i, contactsMsg.rowInvalidPhone, 'phone'));
      continue;
    }
    const email = rawEmail.slice(0, 200);
    if (email && (rawEmail.length > 200 || !EMAIL.test(email))) {
      errors.push(rowError(i, contactsMsg.rowInvalidEmail, 'email'));
      continue;
    }
    if (seen.has(phone)) {
      duplicates++;
      continue;
    }
    seen.add(phone);
    candidates.push({
      index: i,
      // A row without a name keeps none: screens show the number, {{nome}} gets its fallback.
      name: rawName.slice(0, 120),
      phone,
      email,
      tags: splitTags(rawTags.slice(0, 500)),
    });
  }
  // A row past the plan's limit was refused for no cell of its own: it is known by its number.
  const overLimitError = (c: Candidate) => rowError(c.index, contactsMsg.rowOverLimit, 'phone');
  return { candidates, errors, duplicates, overLimitError } as const;
}

type Runner = Pick<Db, 'execute'>;

/**
 * The numbers of the file the account already has. An account smaller than the file is read whole
 * (one index scan; nothing at all for a new account); a larger one is asked about the file's numbers.
 */
async function existingPhones(tx: Runner, userId: string, phones: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const [{ n }] = rowsOf(await tx.execute(sql`select count(*)::int as n from contacts where ${accountSql(userId)}`));
  if (n === 0) return found;
  if ((n as number) <= phones.length) {
    const all = await tx.execute(sql`select phone from contacts where ${accountSql(userId)}`);
    for (const r of rowsOf(all)) found.add(r.phone as string);
    return found;
  }
  for (let i = 0; i < phones.length; i += LOOKUP_BATCH) {
    const batch = phones.slice(i, i + LOOKUP_BATCH);
    const result = await tx.execute(
      sql`select phone from contacts where ${accountSql(userId)} and phone = any(${sql.param(batch)}::text[])`,
    );
    for (const r of rowsOf(result)) found.add(r.phone as string);
  }
  return found;
}

/**
 * A module-level handler: a closure made inside importContacts would hold its whole scope (the
 * file's parsed rows) in memory until the vacuum it waits on ends.
 */
function ignoreFailure(): void {}

/**
 * Imports a CSV, TXT, XLS or XLSX file of contacts in one transaction: every valid new row or none.
 * Duplicates (within the file and against the account's contacts) are counted, invalid rows answered
 * with their row number and reason, and rows past the plan's limit are not imported. A successful
 * import is written to the activity log and notified ('Importação concluída').
 */
export async function importContacts(
  db: Db,
  state: AppState,
  account: Account,
  file: { filename: string; data: Buffer },
  log: ErrorLog,
): Promise<ImportResult> {
  const parsed = await parseFile(state, account.id, file.filename, file.data);
  if ('failure' in parsed) {
    return {
      success: false,
      message: parsed.failure ?? contactsMsg.importError,
      imported: 0,
      duplicates: 0,
      errors: [],
    };
  }
  const { candidates, errors, overLimitError } = parsed;
  let duplicates = parsed.duplicates;

  const imported = await db.transaction(async (tx) => {
    const slots = await lockRemainingSlots(tx, account);
    const existing = await existingPhones(
      tx,
      account.id,
      candidates.map((c) => c.phone),
    );
    // Ids made here are time-ordered (UUIDv7): the primary key index grows at its end instead of
    // splitting pages all over, and the database does not draw 100,000 random numbers.
    // The rows to write, in contactRows' column order.
    const fresh: BulkValue[][] = [];
    const ids = timeOrderedIds(Math.min(candidates.length, slots));
    for (const c of candidates) {
      if (existing.has(c.phone)) duplicates++;
      else if (fresh.length < slots) fresh.push([ids[fresh.length], c.name, c.phone, c.email || null, c.tags]);
      else errors.push(overLimitError(c));
    }
    // Known numbers were excluded above under the account lock (which creating a contact takes
    // too); a number another writer adds meanwhile (editing a contact) is skipped by the loader.
    const inserted = await bulkInsert(tx, contactRows(account.id), fresh, { keysExcluded: true });
    // A concurrent insert of the same number (after our lookup) is a duplicate too.
    duplicates += fresh.length - inserted;
    return inserted;
  });

  contactsChanged(state, account.id);
  if (imported >= VACUUM_AFTER_ROWS) {
    // Freshly inserted rows make every page read visit the heap until the table is vacuumed (visibility
    // map, hint bits) and the planner has no statistics for them; PGlite has no autovacuum. Done after
    // answering, and harmless if it fails (PostgreSQL's autovacuum gets there too).
    void db.execute(sql`vacuum analyze contacts`).catch(ignoreFailure);
  }
  errors.sort((a, b) => a.row - b.row);
  const overLimit = errors.filter((e) => e.reason === contactsMsg.rowOverLimit).length;
  const limit = contactLimitFor(account.planType);
  let message: string;
  if (overLimit > 0 && limit !== null) {
    message =
      imported === 0
        ? planLimitMessage(account)
        : contactsMsg.importPlanLimit(imported, overLimit, limit, planLabel(account.planType));
  } else {
    message = contactsMsg.importDone(imported);
    if (duplicates) message += `; ${contactsMsg.importDuplicates(duplicates)}`;
    if (errors.length) message += `; ${contactsMsg.importRowErrors(errors.length)}`;
  }
  const success = imported > 0 || (overLimit === 0 && (duplicates > 0 || errors.length === 0));
  if (success) {
    await record(
      db,
      { kind: 'contacts_imported', by: { userId: account.id, actorId: account.id }, file: file.filename, message },
      { log },
    );
  }
  return { success, message, imported, duplicates, errors };
}

/** Turns the file-size error of the multipart reader into our pt-BR answer. */
export function fileTooLarge(maxMb: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', contactsMsg.fileTooLarge(maxMb));
}
