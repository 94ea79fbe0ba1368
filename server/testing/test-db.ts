import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../db/client';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Drops a test database once its pool's connections have finished closing. Forcing the drop at once
 * would kill connections that are still saying goodbye, and their clients would throw.
 */
async function dropWhenFree(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await admin.query(`drop database if exists ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err; // object in use
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.query(`drop database if exists ${name} with (force)`);
}

/**
 * A uniquely named PostgreSQL database cloned from the run's migrated template, for a test that
 * hands its URL to other processes; `drop` removes it once its connections are gone.
 */
export async function createTestPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL as string;
  const name = `disparo_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  return {
    url: withDatabase(url, name),
    drop: async () => {
      await dropWhenFree(admin, name);
      await admin.end();
    },
  };
}

/**
 * A migrated database for one test file: PGlite loaded from the run's dump, or a uniquely named
 * PostgreSQL database cloned from the run's template and dropped on close.
 */
export async function createTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB === 'postgres') {
    const created = await createTestPostgres();
    const database = openPostgres(created.url, 5);
    return {
      ...database,
      close: async () => {
        await database.close();
        await created.drop();
      },
    };
  }
  const dump = readFileSync(inject('pgliteDump'));
  const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  return openPglite(client);
}
