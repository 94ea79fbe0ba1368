import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-db';
import { type BulkTable, type BulkValue, bulkInsert } from './bulk-insert';
import type { Database } from './client';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(
    sql`create table bulk_probe (id uuid primary key, owner uuid not null, label text, tags text[] not null default '{}', n integer, at timestamptz, yes boolean, unique (owner, label))`,
  );
});
afterAll(() => database.close());

const owner = '00000000-0000-4000-8000-0000000000aa';
const spec: BulkTable = {
  table: 'bulk_probe',
  fixed: [{ name: 'owner', type: 'uuid', value: owner }],
  columns: [
    { name: 'id', type: 'uuid' },
    { name: 'label', type: 'text' },
    { name: 'tags', type: 'text[]' },
    { name: 'n', type: 'integer' },
  ],
};
const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('bulkInsert', () => {
  it('writes every value as given, whatever it contains, on this engine', async () => {
    const tricky = ['tab\there', 'line\nbreak\r\n', 'back\\slash \\N', 'quote " and \'', 'ção', ''];
    const rows: BulkValue[][] = tricky.map((label, i) => [
      id(i + 1),
      label,
      i % 2 ? [] : ['a b', 'c,d', '"q"', '\\'],
      i,
    ]);
    rows.push([id(99), null, ['só'], null]);
    expect(await database.db.transaction((tx) => bulkInsert(tx, spec, rows))).toBe(rows.length);
    const stored = await database.db.execute(sql`select id, owner, label, tags, n from bulk_probe order by id`);
    expect((stored as unknown as { rows: unknown[] }).rows).toEqual(
      rows.map(([rid, label, tags, n]) => ({ id: rid, owner, label, tags, n })),
    );
  });

  it('loads many rows in batches', async () => {
    const many = Array.from({ length: 30_000 }, (_, i) => [id(1000 + i), `r${i}`, [], i]);
    expect(await database.db.transaction((tx) => bulkInsert(tx, spec, many))).toBe(many.length);
    const [{ count }] = (
      (await database.db.execute(sql`select count(*)::int as count from bulk_probe where n >= 0`)) as unknown as {
        rows: Array<{ count: number }>;
      }
    ).rows;
    expect(count).toBe(30_000 + 6);
  });

  it('skips conflicting rows on PostgreSQL; the embedded database refuses them (callers exclude them first)', async () => {
    const rows = [
      [id(5000001), 'tab\there', [], 1],
      [id(5000002), 'nova', [], 2],
    ];
    const load = database.db.transaction((tx) => bulkInsert(tx, spec, rows));
    if (database.kind === 'postgres') expect(await load).toBe(1);
    else await expect(load).rejects.toThrow();
  });

  it('a key that appeared despite the caller’s exclusion is skipped, and the rest still goes in', async () => {
    await database.db.execute(
      sql`insert into bulk_probe (id, owner, label) values (${id(7000000)}, ${owner}, 'existente')`,
    );
    const rows = [
      [id(7000001), 'nova um', [], 1],
      [id(7000002), 'existente', [], 2],
      [id(7000003), 'nova dois', [], 3],
    ];
    const load = database.db.transaction((tx) => bulkInsert(tx, spec, rows, { keysExcluded: true }));
    if (database.kind === 'postgres') {
      expect(await load).toBe(2);
      const stored = (
        (await database.db.execute(
          sql`select id from bulk_probe where id in (${id(7000001)}, ${id(7000002)}, ${id(7000003)})`,
        )) as unknown as {
          rows: Array<{ id: string }>;
        }
      ).rows.map((r) => r.id);
      expect(stored.sort()).toEqual([id(7000001), id(7000003)]);
    } else await expect(load).rejects.toThrow();
  });

  it('reads timestamps with their offset as the instants they name, and booleans', async () => {
    const timed: BulkTable = {
      ...spec,
      columns: [...spec.columns, { name: 'at', type: 'timestamptz' }, { name: 'yes', type: 'boolean' }],
    };
    const rows: BulkValue[][] = [
      [id(8000001), 'utc', [], 1, '2026-03-10T15:04:05.123Z', true],
      [id(8000002), 'são paulo', [], 2, '2026-03-10T12:04:05.123-03:00', false],
      [id(8000003), 'sem data', [], 3, null, null],
    ];
    expect(await database.db.transaction((tx) => bulkInsert(tx, timed, rows, { keysExcluded: true }))).toBe(3);
    const stored = (
      (await database.db.execute(
        sql`select label, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as at, yes from bulk_probe
            where id in (${id(8000001)}, ${id(8000002)}, ${id(8000003)}) order by id`,
      )) as unknown as { rows: Array<{ label: string; at: string | null; yes: boolean | null }> }
    ).rows;
    expect(stored).toEqual([
      { label: 'utc', at: '2026-03-10T15:04:05.123', yes: true },
      { label: 'são paulo', at: '2026-03-10T15:04:05.123', yes: false },
      { label: 'sem data', at: null, yes: null },
    ]);
  });
});
