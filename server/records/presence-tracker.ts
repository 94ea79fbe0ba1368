import { sql } from 'drizzle-orm';
import { RECENT_WINDOW_MS } from '../../contract/presence';
import type { Db } from '../db/client';
import type { ErrorLog } from './notify';

/** A user's `last_seen_at` is written at most this often. */
export const PRESENCE_WRITE_EVERY_MS = 60_000;
/** How often the tracker looks for what is due to be written. */
const FLUSH_CHECK_MS = 15_000;

export interface PresenceTrackerOptions {
  db: Db;
  log: ErrorLog;
  /** The clock (tests move it by hand). */
  now?: () => number;
  /**
   * Tells the other processes that an account showed up here (its first request, or the first
   * after ANNOUNCE_AFTER_S without one): they count it online at once instead of when this process
   * next writes `last_seen_at`.
   */
  announce?: (userId: string, atMs: number) => void;
}

/** A request after this long without one from the account is announced to the other processes again. */
const ANNOUNCE_AFTER_S = 60;

/**
 * When each account last made a request, from real traffic. The access gate and the session poll's
 * fast path call `seen` on every signed-in request: one `Map.set` of a small integer (seconds since
 * the tracker started — a value V8 stores without allocating), no promise, no database. A timer
 * writes `users.last_seen_at` for the accounts seen since their last write, at most once a minute
 * per account, in one statement. Readers merge the column (every process's writes) with this
 * process's map (the newest).
 */
export class PresenceTracker {
  private readonly base: number;
  /** The last request of each account, in whole seconds since `base`. */
  private readonly seenAt = new Map<string, number>();
  /** What was last written per account: the value and when (ms). */
  private readonly written = new Map<string, { value: number; at: number }>();
  /** The last request of each account as other processes announced it (ms since the epoch). */
  private readonly elsewhere = new Map<string, number>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<number> | null = null;

  constructor(private readonly opts: PresenceTrackerOptions) {
    this.now = opts.now ?? Date.now;
    this.base = this.now();
  }

  /** An account made a request now. */
  seen(userId: string): void {
    const s = Math.floor((this.now() - this.base) / 1000);
    const previous = this.seenAt.get(userId);
    this.seenAt.set(userId, s);
    if (this.opts.announce && (previous === undefined || s - previous >= ANNOUNCE_AFTER_S)) {
      this.opts.announce(userId, this.base + s * 1000);
    }
  }

  /** Another process saw the account at `atMs` (its announcement). */
  seenElsewhere(userId: string, atMs: number): void {
    if (!Number.isFinite(atMs) || atMs > this.now() + 60_000) return;
    if ((this.elsewhere.get(userId) ?? 0) < atMs) this.elsewhere.set(userId, atMs);
  }

  /** When this process last saw the account (ms since the epoch), if it did. */
  lastSeen(userId: string): number | undefined {
    const s = this.seenAt.get(userId);
    const here = s === undefined ? undefined : this.base + s * 1000;
    const there = this.elsewhere.get(userId);
    if (there === undefined) return here;
    return here === undefined ? there : Math.max(here, there);
  }

  /** Every account this process saw (or another announced) since `sinceMs`, with when. */
  seenSince(sinceMs: number): Map<string, number> {
    const out = new Map<string, number>();
    for (const [userId, s] of this.seenAt) {
      const at = this.base + s * 1000;
      if (at >= sinceMs) out.set(userId, at);
    }
    for (const [userId, at] of this.elsewhere) {
      if (at >= sinceMs && (out.get(userId) ?? 0) < at) out.set(userId, at);
    }
    return out;
  }

  /** The current time of the tracker's clock. */
  time(): number {
    return this.now();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), FLUSH_CHECK_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what is due. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /**
   * Writes `last_seen_at` of the accounts seen since their last write whose last write is at least
   * a minute old (or that were never written); answers how many rows it wrote. Never throws.
   */
  flush(): Promise<number> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async write(): Promise<number> {
    const now = this.now();
    const due: Array<{ userId: string; value: number }> = [];
    for (const [userId, value] of this.seenAt) {
      const w = this.written.get(userId);
      if (w && (w.value >= value || now - w.at < PRESENCE_WRITE_EVERY_MS)) continue;
      due.push({ userId, value });
    }
    this.forgetOld(now);
    if (due.length === 0) return 0;
    const values = sql.join(
      due.map((d) => sql`(${d.userId}::uuid, ${new Date(this.base + d.value * 1000).toISOString()}::timestamptz)`),
      sql`, `,
    );
    try {
      // Never backwards: another process may have written a later request.
      await this.opts.db.execute(sql`
        update users u set last_seen_at = greatest(u.last_seen_at, v.at)
        from (values ${values}) as v(id, at)
        where u.id = v.id`);
    } catch (err) {
      this.opts.log.error({ err }, 'could not record when users were last seen');
      return 0;
    }
    for (const d of due) this.written.set(d.userId, { value: d.value, at: now });
    return due.length;
  }

  /** Accounts not seen for a day leave the maps (their column keeps the time). */
  private forgetOld(now: number): void {
    for (const [userId, at] of this.elsewhere) if (at < now - RECENT_WINDOW_MS) this.elsewhere.delete(userId);
    const oldest = Math.floor((now - RECENT_WINDOW_MS - this.base) / 1000);
    for (const [userId, s] of this.seenAt) {
      const w = this.written.get(userId);
      if (s < oldest && (!w || w.value >= s)) {
        this.seenAt.delete(userId);
        this.written.delete(userId);
      }
    }
  }
}
