import type { Transaction as PgliteTx } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { PgliteTransaction } from 'drizzle-orm/pglite';
import type { Db } from './client';

/**
 * Many rows into one table at the speed each engine allows, never a query per row: on the
 * embedded database `COPY … FROM` a blob (one parse, no parameter arrays), on PostgreSQL one
 * `INSERT … SELECT FROM unnest()` per batch. Contact imports and campaign starts share it.
 *
 * Conflicts on a unique key are skipped and not counted. On PostgreSQL that is `ON CONFLICT DO
 * NOTHING` (another process may insert the same key between a caller's check and its insert). The
 * embedded database has one connection and COPY has no ON CONFLICT: callers exclude known keys
 * beforehand inside the same transaction, so COPY meets none.
 */
export type BulkType = 'uuid' | 'text' | 'text[]' | 'integer';
export type BulkValue = string | number | string[] | null;

export interface BulkTable {
  table: string;
  columns: Array<{ name: string; type: BulkType }>;
  /** The same value in every row (the account, the campaign): sent once, not once per row. */
  fixed?: Array<{ name: string; type: BulkType; value: string | number }>;
}

const COPY_BATCH = 25_000;
const INSERT_BATCH = 2_000;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** Joins a text[] cell into one text for unnest (arrays of arrays do not unnest row by row). */
const ARRAY_SEPARATOR = '\u001f';

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}

/** PGlite's own transaction behind a Drizzle transaction (COPY needs it), or null on PostgreSQL. */
function pgliteHandle(tx: unknown): PgliteTx | null {
  if (!(tx instanceof PgliteTransaction)) return null;
  return (tx as unknown as { session: { client: PgliteTx } }).session.client;
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyText = (value: string) =>
  value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/** A text[] literal with every element quoted. */
const arrayLiteral = (items: string[]) =>
  items.length === 0 ? '{}' : `{${items.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

function copyCell(value: BulkValue | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (Array.isArray(value)) return copyText(arrayLiteral(value));
  return typeof value === 'number' ? String(value) : copyText(value);
}

async function copyBatch(handle: PgliteTx, spec: BulkTable, rows: BulkValue[][]): Promise<number> {
  const fixed = spec.fixed ?? [];
  const fixedCells = fixed.map((f) => copyCell(f.value));
  const parts: string[] = [];
  for (const row of rows) {
    const cells = fixedCells.slice();
    for (let i = 0; i < spec.columns.length; i++) cells.push(copyCell(row[i]));
    parts.push(cells.join('\t'));
  }
  const names = [...fixed, ...spec.columns].map((c) => identifier(c.name)).join(', ');
  const result = await handle.query(`copy ${identifier(spec.table)} (${names}) from '/dev/blob'`, [], {
    blob: new Blob([`${parts.join('\n')}\n`]),
  });
  return result.affectedRows ?? rows.length;
}

/** unnest() cannot take a text[][] row by row: each text[] cell travels joined, and is split back. */
function unnestColumn(type: BulkType, values: BulkValue[]): { param: SQL; select: (alias: string) => SQL } {
  if (type === 'text[]') {
    const joined = values.map((v) => (Array.isArray(v) ? v.join(ARRAY_SEPARATOR) : null));
    return {
      param: sql`${sql.param(joined)}::text[]`,
      select: (a) =>
        sql.raw(`case when ${a} is null or ${a} = '' then '{}'::text[] else string_to_array(${a}, chr(31)) end`),
    };
  }
  return { param: sql`${sql.param(values)}::${sql.raw(type)}[]`, select: (a) => sql.raw(a) };
}

async function insertBatch(tx: Pick<Db, 'execute'>, spec: BulkTable, rows: BulkValue[][]): Promise<number> {
  const fixed = spec.fixed ?? [];
  const columns = spec.columns.map((c, i) =>
    unnestColumn(
      c.type,
      rows.map((r) => r[i] ?? null),
    ),
  );
  const aliases = spec.columns.map((_, i) => `c${i}`);
  const names = [...fixed, ...spec.columns].map((c) => identifier(c.name)).join(', ');
  const selected = [
    ...fixed.map((f) => sql`${f.value}::${sql.raw(f.type)}`),
    ...columns.map((c, i) => c.select(aliases[i])),
  ];
  const result = await tx.execute(sql`
    insert into ${sql.raw(identifier(spec.table))} (${sql.raw(names)})
    select ${sql.join(selected, sql`, `)}
    from unnest(${sql.join(
      columns.map((c) => c.param),
      sql`, `,
    )}) as u(${sql.raw(aliases.join(', '))})
    on conflict do nothing
    returning 1`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

/** Inserts the rows (values in `spec.columns` order) inside the caller's transaction; answers how many went in. */
export async function bulkInsert(tx: unknown, spec: BulkTable, rows: BulkValue[][]): Promise<number> {
  let inserted = 0;
  const handle = pgliteHandle(tx);
  if (handle) {
    for (let i = 0; i < rows.length; i += COPY_BATCH)
      inserted += await copyBatch(handle, spec, rows.slice(i, i + COPY_BATCH));
  } else {
    const runner = tx as Pick<Db, 'execute'>;
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      inserted += await insertBatch(runner, spec, rows.slice(i, i + INSERT_BATCH));
    }
  }
  return inserted;
}
