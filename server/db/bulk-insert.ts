import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Transaction as PgliteTx } from '@electric-sql/pglite';
import { PgliteTransaction } from 'drizzle-orm/pglite';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Many rows into one table at the speed each engine allows, never a query per row: `COPY` on
 * both. On the embedded database `COPY … FROM` a blob straight into the table; on PostgreSQL
 * `COPY … FROM STDIN` (pg-copy-streams) into a temporary table without indexes, then one
 * `INSERT … SELECT … ON CONFLICT DO NOTHING` into the table (another process may insert the same
 * key between a caller's check and its insert, and COPY itself cannot skip a conflict).
 *
 * Conflicts on a unique key are skipped and not counted. The
 * embedded database has one connection and COPY has no ON CONFLICT: callers exclude known keys
 * beforehand inside the same transaction, so COPY meets none.
 */
/** A column's type; a `timestamptz` value is text the database reads as one (ISO 8601 with its offset). */
export type BulkType = 'uuid' | 'text' | 'text[]' | 'integer' | 'boolean' | 'timestamptz';
export type BulkValue = string | number | boolean | string[] | null;

export interface BulkTable {
  table: string;
  columns: Array<{ name: string; type: BulkType }>;
  /** The same value in every row (the account, the campaign): sent once, not once per row. */
  fixed?: Array<{ name: string; type: BulkType; value: string | number | boolean }>;
}

const COPY_BATCH = 25_000;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

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
const COPY_SPECIAL = /[\\\t\n\r]/;
const copyText = (value: string) =>
  // Most values hold nothing to escape: a test allocates nothing, a replace with a callback does.
  COPY_SPECIAL.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : value;

/** A text[] literal with every element quoted. */
const ARRAY_SPECIAL = /["\\]/;
const arrayLiteral = (items: string[]) =>
  items.length === 0
    ? '{}'
    : `{${items.map((t) => `"${ARRAY_SPECIAL.test(t) ? t.replace(/["\\]/g, '\\$&') : t}"`).join(',')}}`;

function copyCell(value: BulkValue | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (Array.isArray(value)) return copyText(arrayLiteral(value));
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return typeof value === 'number' ? String(value) : copyText(value);
}

/**
 * One row in COPY's text format: fixed cells first, then the row's, tab-separated. Built as one
 * string (no array per row): 100,000 rows are otherwise 100,000 short-lived arrays to collect.
 */
function copyLine(fixedPrefix: string, row: BulkValue[], width: number): string {
  let line = fixedPrefix;
  for (let c = 0; c < width; c++) line += c === 0 ? copyCell(row[c]) : `\t${copyCell(row[c])}`;
  return line;
}

function fixedPrefix(spec: BulkTable, withFixed: boolean): string {
  const fixed = withFixed ? (spec.fixed ?? []) : [];
  return fixed.length ? `${fixed.map((f) => copyCell(f.value)).join('\t')}\t` : '';
}

async function copyBatch(handle: PgliteTx, spec: BulkTable, rows: BulkValue[][]): Promise<number> {
  const prefix = fixedPrefix(spec, true);
  const width = spec.columns.length;
  let body = '';
  for (const row of rows) body += `${copyLine(prefix, row, width)}\n`;
  const names = [...(spec.fixed ?? []), ...spec.columns].map((c) => identifier(c.name)).join(', ');
  const result = await handle.query(`copy ${identifier(spec.table)} (${names}) from '/dev/blob'`, [], {
    blob: new Blob([body]),
  });
  return result.affectedRows ?? rows.length;
}

/** The pooled connection behind a Drizzle node-postgres transaction (COPY needs it), or null. */
function pgClient(tx: unknown): PoolClient | null {
  const client = (tx as { session?: { client?: unknown } }).session?.client as PoolClient | undefined;
  return client && typeof client.query === 'function' && 'release' in client ? client : null;
}

/** Rows in COPY's text format, a chunk at a time (a chunk per COPY_BATCH rows keeps memory flat). */
function* copyChunks(spec: BulkTable, rows: BulkValue[][], withFixed: boolean): Generator<string> {
  const prefix = fixedPrefix(spec, withFixed);
  const width = spec.columns.length;
  for (let i = 0; i < rows.length; i += COPY_BATCH) {
    let chunk = '';
    const end = Math.min(rows.length, i + COPY_BATCH);
    for (let r = i; r < end; r++) chunk += `${copyLine(prefix, rows[r], width)}\n`;
    yield chunk;
  }
}

const UNIQUE_VIOLATION = '23505';

/**
 * Straight into the table, when the caller excluded every known key under a lock: as fast as the
 * database goes. A key another writer added meanwhile makes COPY fail; the savepoint undoes it and
 * the caller's rows go through the staging table instead. Answers null in that case.
 */
async function copyDirect(client: PoolClient, spec: BulkTable, rows: BulkValue[][]): Promise<number | null> {
  const names = [...(spec.fixed ?? []), ...spec.columns].map((c) => identifier(c.name)).join(', ');
  await client.query('savepoint bulk_direct');
  try {
    await pipeline(
      Readable.from(copyChunks(spec, rows, true)),
      client.query(copyFrom(`copy ${identifier(spec.table)} (${names}) from stdin`)),
    );
  } catch (err) {
    if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
    await client.query('rollback to savepoint bulk_direct');
    return null;
  }
  await client.query('release savepoint bulk_direct');
  return rows.length;
}

async function copyPostgres(client: PoolClient, spec: BulkTable, rows: BulkValue[][]): Promise<number> {
  const fixed = spec.fixed ?? [];
  const staging = identifier(`bulk_${spec.table}`);
  const columns = spec.columns.map((c) => `${identifier(c.name)} ${c.type}`).join(', ');
  await client.query(`create temp table if not exists ${staging} (${columns}) on commit drop`);
  await client.query(`truncate ${staging}`);
  const names = spec.columns.map((c) => identifier(c.name));
  await pipeline(
    Readable.from(copyChunks(spec, rows, false)),
    client.query(copyFrom(`copy ${staging} (${names.join(', ')}) from stdin`)),
  );
  const targets = [...fixed.map((f) => identifier(f.name)), ...names].join(', ');
  const selected = [...fixed.map((f, i) => `$${i + 1}::${f.type}`), ...names].join(', ');
  const result = await client.query(
    `insert into ${identifier(spec.table)} (${targets}) select ${selected} from ${staging} on conflict do nothing`,
    fixed.map((f) => f.value),
  );
  await client.query(`truncate ${staging}`);
  return result.rowCount ?? 0;
}

/**
 * Inserts the rows (values in `spec.columns` order) inside the caller's transaction; answers how
 * many went in. `keysExcluded`: the caller already left out every key the table holds, under a
 * lock its other writers take too, so PostgreSQL can COPY straight into the table.
 */
export async function bulkInsert(
  tx: unknown,
  spec: BulkTable,
  rows: BulkValue[][],
  opts: { keysExcluded?: boolean } = {},
): Promise<number> {
  let inserted = 0;
  const handle = pgliteHandle(tx);
  if (handle) {
    for (let i = 0; i < rows.length; i += COPY_BATCH)
      inserted += await copyBatch(handle, spec, rows.slice(i, i + COPY_BATCH));
    return inserted;
  }
  const client = pgClient(tx);
  if (!client) throw new Error('bulkInsert needs a transaction of the embedded database or of node-postgres');
  if (!rows.length) return 0;
  if (opts.keysExcluded) {
    const direct = await copyDirect(client, spec, rows);
    if (direct !== null) return direct;
  }
  return copyPostgres(client, spec, rows);
}
