import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { v7 as uuidv7 } from 'uuid';
import { createDatabase } from '../../scripts/launch-server.mjs';
import { openPglite, openPostgres } from '../../server/db/client';
import { normalizePhone } from '../../server/lib/phone';

const COLUMNS = 'id, user_id, name, phone, email, tags';

const copyText = (v: string) =>
  v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/** The rows as the import stores them (ids, the account, normalised phones), in COPY's text format. */
function copyBody(rows: string[][], userId: string): string {
  const lines: string[] = [];
  for (const [name, phone, email, tags] of rows.slice(1)) {
    const normalized = normalizePhone(phone) ?? phone;
    const tagList = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const array = tagList.length ? `{${tagList.map((t) => `"${t}"`).join(',')}}` : '{}';
    lines.push(
      [uuidv7(), userId, copyText(name), normalized, email ? copyText(email) : '\\N', copyText(array)].join('\t'),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The database's own floor for an import: `COPY` of the same rows into the real `contacts` table
 * (the same keys, indexes, generated column and foreign key) of a freshly migrated database on the
 * same engine as the server under test. Answers the milliseconds of the COPY and its commit.
 */
export async function copyFloorMs(rows: string[][]): Promise<number> {
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl) {
    const fresh = await createDatabase(postgresUrl, 'disparo_floor');
    const database = openPostgres(fresh.url, 2);
    try {
      await database.migrate();
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      try {
        const user = await client.query(
          `insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
           values ('Piso', 'piso@bench.example', 'piso', '+55 11 90000-0000', 'x', 'active', 'enterprise', true) returning id`,
        );
        const body = copyBody(rows, user.rows[0].id);
        const started = performance.now();
        await client.query('begin');
        await pipeline(Readable.from([body]), client.query(copyFrom(`copy contacts (${COLUMNS}) from stdin`)));
        await client.query('commit');
        return performance.now() - started;
      } finally {
        await client.end();
      }
    } finally {
      await database.close();
      await fresh.drop();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'disparo-floor-'));
  const client = await PGlite.create({ dataDir: join(dir, 'pgdata') });
  try {
    await openPglite(client).migrate();
    const user = await client.query<{ id: string }>(
      `insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
       values ('Piso', 'piso@bench.example', 'piso', '+55 11 90000-0000', 'x', 'active', 'enterprise', true) returning id`,
    );
    const body = copyBody(rows, user.rows[0].id);
    const started = performance.now();
    await client.transaction(async (tx) => {
      await tx.query(`copy contacts (${COLUMNS}) from '/dev/blob'`, [], { blob: new Blob([body]) });
    });
    return performance.now() - started;
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
