import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * The contacts search of large accounts, held in this process.
 *
 * A search is a substring match ('%maria%'), which no B-tree index answers: in an account of 100,000
 * contacts the database reads every row of the account for a rare word, or walks the name index a
 * long way before it has a page of a common one (30–40 ms each on the embedded database). A trigram
 * index helps only the rare words and doubles the cost of every import (docs/decisions/007).
 *
 * Instead, the first search of a large account reads its `search_text` column once, in the list's
 * order (name, then id, as the database sorts them), into one string with the rows separated by NUL
 * (which a PostgreSQL text never contains) and a table of where each row starts. A search is then
 * `indexOf` over that string: a few milliseconds for 100,000 contacts, whatever the word. The page's
 * rows are read from the database by id, so what is shown is always current.
 *
 * Freshness: every write of this process to an account's contacts drops its entry at once
 * (`forgetSearchIndex`); another process's writes are seen within TTL_MS, like the stat cards'.
 * Memory: about 70 bytes per contact, at most MAX_CACHED_CONTACTS contacts over all accounts (least
 * recently used accounts leave first).
 */

export const searchIndexSettings = {
  /** Accounts with fewer contacts are searched in the database, which is fast enough for them. */
  minContacts: 5_000,
};

const TTL_MS = 15_000;
const MAX_CACHED_CONTACTS = 1_000_000;
const SEPARATOR = '\u0000';

interface SearchIndex {
  /** Every row's search text, in list order, each followed by SEPARATOR. */
  text: string;
  /** Where row i starts in `text`; one more entry than there are rows (the end). */
  starts: Uint32Array;
  ids: string[];
  loadedAt: number;
}

const cache = new Map<string, SearchIndex>();
const loading = new Map<string, { promise: Promise<SearchIndex>; generation: number }>();
const generations = new Map<string, number>();
let cachedContacts = 0;

/** Drops the account's index: its contacts changed in this process. */
export function forgetSearchIndex(userId: string): void {
  generations.set(userId, (generations.get(userId) ?? 0) + 1);
  const entry = cache.get(userId);
  if (entry) {
    cachedContacts -= entry.ids.length;
    cache.delete(userId);
  }
}

async function load(db: Db, userId: string): Promise<SearchIndex> {
  const result = await db.execute(
    sql`select id, search_text from contacts where user_id = ${userId} order by search_text, id`,
  );
  const rows = (result as unknown as { rows: Array<{ id: string; search_text: string }> }).rows;
  const starts = new Uint32Array(rows.length + 1);
  const ids = new Array<string>(rows.length);
  const parts = new Array<string>(rows.length);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    starts[i] = at;
    ids[i] = rows[i].id;
    parts[i] = rows[i].search_text;
    at += rows[i].search_text.length + 1;
  }
  starts[rows.length] = at;
  const text = parts.length ? `${parts.join(SEPARATOR)}${SEPARATOR}` : '';
  return { text, starts, ids, loadedAt: Date.now() };
}

async function indexFor(db: Db, userId: string): Promise<SearchIndex> {
  const cached = cache.get(userId);
  if (cached && Date.now() - cached.loadedAt < TTL_MS) {
    // Most recently used last, so eviction takes the oldest first.
    cache.delete(userId);
    cache.set(userId, cached);
    return cached;
  }
  const generation = generations.get(userId) ?? 0;
  const pending = loading.get(userId);
  if (pending && pending.generation === generation) return pending.promise;
  const promise = load(db, userId).finally(() => {
    if (loading.get(userId)?.promise === promise) loading.delete(userId);
  });
  loading.set(userId, { promise, generation });
  const index = await promise;
  // A write during the load may be missing from it: use it for this search, keep it only if none came.
  if ((generations.get(userId) ?? 0) === generation) {
    const previous = cache.get(userId);
    if (previous) cachedContacts -= previous.ids.length;
    cache.set(userId, index);
    cachedContacts += index.ids.length;
    for (const [key, entry] of cache) {
      if (cachedContacts <= MAX_CACHED_CONTACTS || key === userId) break;
      cache.delete(key);
      cachedContacts -= entry.ids.length;
    }
  }
  return index;
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
 * The ids of one page of the account's contacts whose search text contains `needle` (already
 * lower-cased and accent-free, or phone digits), and how many match in all.
 */
export async function searchContactIds(
  db: Db,
  userId: string,
  needle: string,
  offset: number,
  limit: number,
): Promise<SearchMatches> {
  const index = await indexFor(db, userId);
  const ids: string[] = [];
  if (needle.includes(SEPARATOR)) return { ids, total: 0 };
  let total = 0;
  let pos = index.text.indexOf(needle);
  while (pos !== -1) {
    const row = rowAt(index.starts, pos);
    if (total >= offset && ids.length < limit) ids.push(index.ids[row]);
    total++;
    pos = index.text.indexOf(needle, index.starts[row + 1]);
  }
  return { ids, total };
}
