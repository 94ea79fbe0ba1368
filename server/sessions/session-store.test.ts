import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { appPerFile } from '../testing/app-per-file';
import { createUser } from '../testing/test-app';
import { SessionStore } from './session-store';

const ctx = appPerFile();

/** The database with its `select` calls counted. */
function counted(db: Db) {
  const counter = { selects: 0 };
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'select') {
        return (...args: unknown[]) => {
          counter.selects++;
          return (target.select as (...a: unknown[]) => unknown)(...args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db: proxy as Db, counter };
}

const policy = { idleMs: 3_600_000, absoluteMs: 86_400_000, cacheMs: 60_000 };

describe('session lookups', () => {
  it('share one database read among requests of one token that miss the cache together', async () => {
    const { db, counter } = counted(ctx.database.db);
    const store = new SessionStore(db, policy);
    const user = await createUser(ctx);
    const token = await store.create(user.id);
    store.clearCache();
    const before = counter.selects;
    const resolved = await Promise.all(Array.from({ length: 8 }, () => store.resolve(token)));
    expect(counter.selects - before).toBe(1);
    for (const s of resolved) expect(s?.user.id).toBe(user.id);
    // Cached now: no more reads.
    await store.resolve(token);
    expect(counter.selects - before).toBe(1);
  });

  it('does not cache a lookup that a revocation overtook', async () => {
    const store = new SessionStore(ctx.database.db, policy);
    const user = await createUser(ctx);
    const token = await store.create(user.id);
    store.clearCache();
    const lookup = store.resolve(token);
    store.forgetUser(user.id);
    expect((await lookup)?.user.id).toBe(user.id);
    expect(store.cached(token)).toBeUndefined();
    // A revoked token's lookup after the revocation finds nothing.
    await store.revoke(token);
    expect(await store.resolve(token)).toBeNull();
  });
});
