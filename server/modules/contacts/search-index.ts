import { sql } from 'drizzle-orm';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { TtlCache } from '../../lib/ttl-cache';

/**
 * The contacts search of large accounts, held in memory by each app (`SearchIndexes`).
 *
 * A search is a substring match ('%maria%'), which no B-tree index answers: in an account of 100,000
 * contacts the database reads every row of the account for a rare word, or walks the name index a
 * long way before it has a page of a common one (30–40 ms each on the embedded database). A trigram
 * index helps only the rare words and doubles the cost of every import (docs/decisions/007).
 *
 * Instead, the first search of a large account reads its `search_text` column once, in the list's
 * order (name, then id, as the database sorts them), into one string with the rows separated by a
 * control character, and a table of where each row starts. A search is then
 * `indexOf` over that string: a few milliseconds for 100,000 contacts, whatever the word. The page's
 * rows are read from the database by id, so what is shown is always current.
 *
 * Freshness: every write of this process to an account's contacts drops its entry at once
 * (`SearchIndexes.forget`); another process's writes are seen within TTL_MS, like the stat cards'.
 * Memory: about 70 bytes per contact, at most MAX_CACHED_CONTACTS contacts over all accounts (least
 * recently used accounts leave first).
 */

export const searchIndexSettings = {
  /** Accounts with fewer contacts are searched in the database, which is fast enough for them. */
  minContacts: 5_000,
};

const TTL_MS = 15_000;
const MAX_CACHED_CONTACTS = 1_000_000;
const SEPARATOR = '\u0001';
const ESCAPED = '\u0002';
const UUID_LENGTH = 36;

interface SearchIndex {
  /** Every row's search text, in list order, each followed by SEPARATOR. */
  text: string;
  /** Where row i starts in `text`; one more entry than there are rows (the end). */
  starts: Uint32Array;
  /** Every row's id (36 characters each), in the same order, one after the other. */
  ids: string;
  count: number;
}

async function load(db: Db, userId: string): Promise<SearchIndex> {
  // Two aggregated strings instead of 100,000 rows: the embedded database hands one row over about
  // ten times faster (50–90 ms against 0.5 s for 100,000 contacts). A SEPARATOR inside a search text
  // (a control character typed into a name) becomes ESCAPED, so rows never run into each other;
  // searches for either character go to the database instead (see `searchContactIds`).
  const result = await db.execute(sql`
    select
      string_agg(replace(search_text, chr(1), chr(2)), chr(1) order by search_text, id) as text,
      string_agg(id::text, '' order by search_text, id) as ids,
      count(*)::int as n
    from contacts where ${accountSql(userId)}`);
  const [row] = (result as unknown as { rows: Array<{ text: string | null; ids: string | null; n: number }> }).rows;
  const count = row?.n ?? 0;
  const text = count > 0 ? `${row.text}${SEPARATOR}` : '';
  const starts = new Uint32Array(count + 1);
  let at = 0;
  for (let i = 0; i < count; i++) {
    starts[i] = at;
    at = text.indexOf(SEPARATOR, at) + 1;
  }
  starts[count] = text.length;
  return { text, starts, ids: row?.ids ?? '', count };
}

/** Index of the row that contains position `pos` of the text (binary search over the starts). */
function rowAt(starts: Uint32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface SearchMatches {
  /** Ids of the requested page's matches, in list order. */
  ids: string[];
  /** How many rows match in all. */
  total: number;
}

/**
 * The search indexes of one app's large accounts (kept in its contacts state, contacts-state.ts).
 * While an account's index loads, every search of it waits for that load; a write meanwhile
 * (a new generation) makes the next search load again.
 */
export class SearchIndexes {
  private readonly cache = new TtlCache<string, SearchIndex>({
    ttlMs: TTL_MS,
    maxEntries: Number.POSITIVE_INFINITY,
    weigh: (index) => index.count,
    maxWeight: MAX_CACHED_CONTACTS,
  });
  private readonly loading = new Map<string, { promise: Promise<SearchIndex>; generation: number }>();
  private readonly generations = new Map<string, number>();

  /** Contacts held over all accounts. */
  get cachedContacts(): number {
    return this.cache.totalWeight;
  }

  /** Drops the account's index (`null`: every account's): its contacts changed. */
  forget(userId: string | null): void {
    if (userId === null) {
      for (const id of new Set([...this.cache.keys(), ...this.loading.keys()])) this.forget(id);
      return;
    }
    this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
    this.cache.delete(userId);
  }

  private async indexFor(db: Db, userId: string): Promise<SearchIndex> {
    const cached = this.cache.get(userId);
    if (cached) return cached;
    const generation = this.generations.get(userId) ?? 0;
    const pending = this.loading.get(userId);
    if (pending && pending.generation === generation) return pending.promise;
    const promise = load(db, userId).finally(() => {
      if (this.loading.get(userId)?.promise === promise) this.loading.delete(userId);
    });
    this.loading.set(userId, { promise, generation });
    const index = await promise;
    // A write during the load may be missing from it: use it for this search, keep it only if none came.
    if ((this.generations.get(userId) ?? 0) === generation) this.cache.set(userId, index);
    return index;
  }

  /**
   * The ids of one page of the account's contacts whose search text contains `needle` (already
   * lower-cased and accent-free, or phone digits), and how many match in all; null for the (control)
   * characters the index cannot answer for, which the database then searches.
   */
  async search(db: Db, userId: string, needle: string, offset: number, limit: number): Promise<SearchMatches | null> {
    if (needle.includes(SEPARATOR) || needle.includes(ESCAPED)) return null;
    const index = await this.indexFor(db, userId);
    const ids: string[] = [];
    let total = 0;
    let pos = index.text.indexOf(needle);
    while (pos !== -1) {
      const row = rowAt(index.starts, pos);
      if (total >= offset && ids.length < limit) ids.push(index.ids.slice(row * UUID_LENGTH, (row + 1) * UUID_LENGTH));
      total++;
      pos = index.text.indexOf(needle, index.starts[row + 1]);
    }
    return { ids, total };
  }
}
