import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction, types } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed migrations; the same files on PGlite and PostgreSQL. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** The package root, found from this file whether it runs from source or from the bundle in dist/. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the server code');
    dir = up;
  }
  return dir;
}

export const migrationsFolder = () => join(projectRoot(), 'server', 'db', 'migrations');

/** The types drizzle reads as the database's text (dates, times, intervals and their arrays). */
const AS_TEXT = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

type QueryOptions = Parameters<PGlite['query']>[2];
/** A client or a transaction: both query, and a client opens transactions. */
type Queryable = { query: PGlite['query']; transaction?: unknown };

/**
 * Drizzle asks PGlite for text dates with a `parsers` option on every query, and PGlite merges it
 * into its 300-odd parsers each time: about 120 KB of garbage per query, whose young-generation
 * collections made most of the chatbot's slowest replies. The client gets those parsers once, and
 * the queries reach it without theirs (the same results, without the copy).
 */
function withStandingParsers<T extends Queryable>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') {
        return (query: string, params?: unknown[], options?: QueryOptions) =>
          target.query(query, params, options?.parsers ? { ...options, parsers: undefined } : options);
      }
      if (prop === 'transaction' && target instanceof PGlite) {
        return <R>(callback: (tx: Transaction) => Promise<R>) =>
          target.transaction((tx) => callback(withStandingParsers(tx)));
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function openPglite(client: PGlite): Database {
  for (const oid of AS_TEXT) client.parsers[oid] = (value: string) => value;
  const db = drizzlePglite(withStandingParsers(client), { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
  };
}

export function openPostgres(url: string, poolSize = 10): Database {
  // A server that does not answer (a network dropping packets) fails a request after 10 s instead of holding it.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle connection that breaks (the server restarted, the network dropped it) is reported
  // here; unheard, the event would end the process. The pool has already discarded that
  // connection and the next query opens a new one.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: migrationsFolder() }),
    close: () => pool.end(),
  };
}

/** PostgreSQL when a URL is given, otherwise PGlite with its files under `dataDir/pgdata`. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  const client = await PGlite.create(join(opts.dataDir, 'pgdata'));
  return openPglite(client);
}
