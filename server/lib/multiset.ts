/**
 * Counts of a key in a list, so that the k-th copy in a backup matches the k-th copy in the account
 * (restores of campaigns and saved messages).
 */
export function multiset(keys: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Takes one copy of `key` out of `m`: false when none is left. */
export function takeFrom(m: Map<string, number>, key: string): boolean {
  const n = m.get(key) ?? 0;
  if (n > 0) m.set(key, n - 1);
  return n > 0;
}
