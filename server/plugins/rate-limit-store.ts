import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/**
 * A store for @fastify/rate-limit kept in `rate_limit_hits`, so every server process on one
 * PostgreSQL counts the same hits: a client gets LOGIN_RATE_LIMIT attempts a minute in all, not per
 * process. One row per route and client key; each hit is one atomic upsert that starts a new window
 * when the old one has ended. Expired rows are deleted now and then, piggybacked on a hit.
 *
 * When the database fails, the hit is let through (fail open) and a warning is logged: a limit
 * that cannot be counted must not turn a sign-in or signup into a 500, and the route itself then
 * answers in Portuguese as it does for any database fault. `continueExceeding` and
 * `exponentialBackoff` are not supported (no route uses them).
 */

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * What @fastify/rate-limit passes to `child` at run time: the merged limit options, with the route's
 * options (method, url…) under `routeInfo` (its typings show route options instead).
 */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

export interface RateLimitStoreOptions {
  /** At most one sweep of expired rows per this many milliseconds (per app). */
  sweepEveryMs?: number;
  /** Database failures are logged at most once per this many milliseconds. */
  warnEveryMs?: number;
}

/** The route part of a key: method and url, or `*` for a limiter that is not a route's. */
function routeScope(options: ChildOptions): string {
  const info = options.routeInfo;
  if (!info?.url) return '*';
  const methods = [info.method ?? ''].flat().join(',');
  return `${methods} ${info.url}`;
}

/**
 * The class to pass as `store` to @fastify/rate-limit: `store: databaseRateLimitStore(db, app.log)`.
 * Each route with its own `config.rateLimit` gets a child store whose keys carry the route.
 */
export function databaseRateLimitStore(db: Db, log: FastifyBaseLogger, options: RateLimitStoreOptions = {}) {
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  const warnEveryMs = options.warnEveryMs ?? 60_000;
  let lastSweep = 0;
  let lastWarning = 0;

  const warn = (err: unknown, message: string) => {
    const now = Date.now();
    if (now - lastWarning < warnEveryMs) return;
    lastWarning = now;
    log.warn({ err }, `rate limit store: ${message}`);
  };

  const sweep = () => {
    const now = Date.now();
    if (now - lastSweep < sweepEveryMs) return;
    lastSweep = now;
    db.execute(sql`delete from rate_limit_hits where reset_at <= now()`).catch((err) =>
      warn(err, 'deleting expired rows failed'),
    );
  };

  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string;

    /** The plugin's global options (the root store), or a route's (see `child`). */
    constructor(options: object = {}) {
      this.scope = routeScope(options as ChildOptions);
    }

    private rowKey(key: string): string {
      return `${this.scope}|${key}`;
    }

    incr(key: string, callback: Callback, timeWindow: number, _max?: number): void {
      const window = sql`${`${Math.max(0, Math.trunc(timeWindow))} milliseconds`}::interval`;
      db.execute(sql`
        insert into rate_limit_hits (key, hits, reset_at) values (${this.rowKey(key)}, 1, now() + ${window})
        on conflict (key) do update set
          hits = case when rate_limit_hits.reset_at <= now() then 1 else rate_limit_hits.hits + 1 end,
          reset_at = case when rate_limit_hits.reset_at <= now() then now() + ${window} else rate_limit_hits.reset_at end
        returning hits, greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::float8 as ttl`).then(
        (result) => {
          const [row] = rowsOf<{ hits: number; ttl: number }>(result);
          callback(null, { current: Number(row.hits), ttl: Number(row.ttl) });
        },
        (err) => {
          warn(err, 'counting a hit failed; requests are let through uncounted');
          callback(null, { current: 0, ttl: timeWindow });
        },
      );
      sweep();
    }

    /** The count so far without adding a hit (`{ increment: false }` limiters). */
    read(key: string, callback: Callback, _timeWindow?: number, _max?: number): void {
      db.execute(sql`
        select hits, greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::float8 as ttl
        from rate_limit_hits where key = ${this.rowKey(key)} and reset_at > now()`).then(
        (result) => {
          const [row] = rowsOf<{ hits: number; ttl: number }>(result);
          callback(null, row ? { current: Number(row.hits), ttl: Number(row.ttl) } : { current: 0, ttl: 0 });
        },
        (err) => {
          warn(err, 'reading a count failed; requests are let through uncounted');
          callback(null, { current: 0, ttl: 0 });
        },
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): DatabaseRateLimitStore {
      return new DatabaseRateLimitStore(routeOptions);
    }
  };
}
