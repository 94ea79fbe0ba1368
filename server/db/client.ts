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
import { createPgliteDataDir, pgliteStartParams } from './pglite-data-dir';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs the committed migrations; the same files on PGlite and PostgreSQL. On PostgreSQL it holds
   * the start-up lock, so processes started together on an empty database migrate one at a time.
   */
  migrate(): Promise<void>;
  /**
   * Runs `fn` holding the start-up lock (the administrator's bootstrap): on PostgreSQL a session
   * advisory lock, which every process takes in turn; on PGlite the data-directory lock already
   * keeps the database to one process, and `fn` simply runs. Not reentrant: `fn` must not call
   * `migrate()` or `exclusive()`.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
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
    exclusive: (fn) => fn(),
    close: () => client.close(),
  };
}

/**
 * The key of the start-up advisory lock. Advisory locks live per database, so servers on other
 * databases of the same PostgreSQL never wait for each other.
 */
const STARTUP_LOCK_KEY = 724_113_905_881;

/**
 * Runs `fn` on one connection of the pool while that connection's session holds the start-up
 * lock. Without it, processes started together on an empty database each run the migrations and
 * one of them fails (`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`
 * as both create the migrations table), or both insert the administrator. The lock is a session
 * lock, not a transaction one, because drizzle's migrator opens and commits its own transaction;
 * it is released before the connection goes back to the pool, and a connection that broke is
 * discarded instead (its session, and so the lock, ends with it).
 */
async function withStartupLock<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  try {
    return await fn(client);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).then(
      () => client.release(),
      (err: Error) => client.release(err),
    );
  }
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
    // The migrations run on the very connection that holds the lock.
    migrate: () =>
      withStartupLock(pool, (client) => migratePg(drizzlePg(client), { migrationsFolder: migrationsFolder() })),
    exclusive: (fn) => withStartupLock(pool, () => fn()),
    close: () => pool.end(),
  };
}

/**
 * PostgreSQL when a URL is given, otherwise PGlite with its files under `dataDir/pgdata`, created
 * on the first start in a child process (see pglite-data-dir.ts) and opened with
 * `sharedBuffersMb` of shared buffers.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  sharedBuffersMb?: number;
}): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  const pgdata = join(opts.dataDir, 'pgdata');
  const startParams = pgliteStartParams(opts.sharedBuffersMb);
  await createPgliteDataDir(pgdata, startParams);
  const client = await PGlite.create(pgdata, { startParams });
  return openPglite(client);
}
