export interface TtlCacheOptions<V> {
  /** An entry is served this long after it was set, then read afresh. */
  ttlMs: number;
  /** At most this many entries; past it the least recently used leave first. */
  maxEntries: number;
  /**
   * With `maxWeight`: the weight of an entry (say, the rows it holds). Past `maxWeight` in all, the
   * least recently used leave first, though never the entry just set.
   */
  weigh?: (value: V) => number;
  maxWeight?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  at: number;
  stamp: string | undefined;
  weight: number;
}

/**
 * Values kept for a short while, each app its own (server/README.md, "Caches"): `get` answers an
 * entry younger than `ttlMs`, and, when the entry was set with a stamp (a campaign's status), only
 * while the caller's stamp is the same. A hit makes the entry the most recently used.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private weight = 0;
  private readonly now: () => number;

  constructor(private readonly opts: TtlCacheOptions<V>) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Total weight of the entries (0 without `weigh`). */
  get totalWeight(): number {
    return this.weight;
  }

  /** The entry's value while it is young enough (and its stamp is `stamp`); a hit makes it the most recently used. */
  get(key: K, stamp?: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.now() - entry.at >= this.opts.ttlMs || entry.stamp !== stamp) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * The entry's value whatever its age, for a value that is checked again rather than read again
   * (`set` it anew once it is found current). An expired entry stays until it is set again,
   * deleted or evicted.
   */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V, stamp?: string): void {
    this.delete(key);
    const weight = this.opts.weigh?.(value) ?? 0;
    this.entries.set(key, { value, at: this.now(), stamp, weight });
    this.weight += weight;
    const maxWeight = this.opts.maxWeight ?? Number.POSITIVE_INFINITY;
    for (const [oldest, entry] of this.entries) {
      if (oldest === key || (this.entries.size <= this.opts.maxEntries && this.weight <= maxWeight)) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.weight -= entry.weight;
    return true;
  }

  /** Drops every entry whose key `drop` answers true for. */
  deleteWhere(drop: (key: K) => boolean): void {
    for (const key of [...this.entries.keys()]) if (drop(key)) this.delete(key);
  }

  /** The keys held (expired ones too, until they are read or evicted). */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}
