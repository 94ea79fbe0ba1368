import { createHash, randomBytes } from 'node:crypto';
import { eq, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { sessions, type UserRow, users } from '../db/schema';

export interface ResolvedSession {
  tokenHash: string;
  /** The login signed in: the account's own row, or a team member's (server/modules/team). */
  user: UserRow;
  /** The account it works for: `user` itself, or the account a member belongs to. */
  account: UserRow;
  lastSeenAt: number;
  expiresAt: number;
}

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  /** How long a resolved session may be served from memory before it is read again. */
  cacheMs: number;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The account a member's login works for, read in the same query as the session. */
const accountRow = alias(users, 'account');

// Sliding expiry is written at most once a minute per session, never on every poll.
const TOUCH_EVERY_MS = 60_000;

/**
 * What a change to sessions drops from the other processes' memory: one session (by its token's
 * hash), every session of a user, or everything.
 */
export type SessionChange = `token:${string}` | `user:${string}` | 'all';

/**
 * Server-side sessions. The 2-second WhatsApp poll resolves its session here on every request, so
 * resolved sessions are kept in memory for `cacheMs`; any change to a user or a session drops the
 * affected entries at once in this process, and `announce` tells the other processes, which drop
 * theirs through `forgetRemote` (the change bus: within a second).
 */
export class SessionStore {
  // Keyed by the token itself (memory only; the database keeps just its hash), so a cache hit costs no hashing.
  private readonly cache = new Map<string, { session: ResolvedSession; until: number }>();
  /**
   * Lookups under way, by token: a page's polls that miss the cache together share one read (after
   * the cache lapses, every poll of a signed-in browser would otherwise read and touch the session).
   */
  private readonly loading = new Map<string, Promise<ResolvedSession | null>>();
  /** Moves on at every revocation, so a lookup that started before one does not cache its result. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
    /** Tells the other processes what to drop (the change bus); nothing when this process is alone. */
    private readonly announce: (change: SessionChange) => void = () => undefined,
  ) {}

  /** Another process changed sessions: the affected cache entries go. */
  forgetRemote(change: string): void {
    this.generation++;
    if (change.startsWith('user:')) {
      this.dropUser(change.slice(5));
    } else if (change.startsWith('token:')) {
      const tokenHash = change.slice(6);
      for (const [key, entry] of this.cache) if (entry.session.tokenHash === tokenHash) this.cache.delete(key);
    } else {
      this.cache.clear();
    }
  }

  async create(userId: string, meta: { userAgent?: string; ip?: string } = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db.insert(sessions).values({
      tokenHash: hashToken(token),
      userId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + this.policy.absoluteMs),
      userAgent: (meta.userAgent ?? '').slice(0, 300),
      ip: meta.ip ?? '',
    });
    return token;
  }

  /**
   * The answer for a token from memory alone: the session, null when it is known to be dead, or
   * undefined when the database must be asked (then call `resolve`).
   */
  cached(token: string): ResolvedSession | null | undefined {
    if (!token || token.length > 100) return null;
    const hit = this.cache.get(token);
    if (!hit) return undefined;
    const now = Date.now();
    if (hit.until <= now) return undefined;
    return this.isLive(hit.session, now) ? hit.session : null;
  }

  /** The live session for a cookie token, or null when unknown, idle too long or past its absolute expiry. */
  async resolve(token: string): Promise<ResolvedSession | null> {
    if (!token || token.length > 100) return null;
    const tokenHash = hashToken(token);
    const now = Date.now();
    const hit = this.cache.get(token);
    if (hit && hit.until > now) {
      return this.isLive(hit.session, now) ? hit.session : null;
    }
    const pending = this.loading.get(token);
    if (pending) return pending;
    const load = this.load(token, tokenHash, now).finally(() => this.loading.delete(token));
    this.loading.set(token, load);
    return load;
  }

  private async load(token: string, tokenHash: string, now: number): Promise<ResolvedSession | null> {
    const generation = this.generation;
    const rows = await this.db
      .select({ session: sessions, user: users, account: accountRow })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(accountRow, eq(accountRow.id, sql`coalesce(${users.accountId}, ${users.id})`))
      .where(eq(sessions.tokenHash, tokenHash))
      .limit(1);
    const row = rows[0];
    if (!row) {
      this.cache.delete(token);
      return null;
    }
    const session: ResolvedSession = {
      tokenHash,
      user: row.user,
      account: row.account,
      lastSeenAt: row.session.lastSeenAt.getTime(),
      expiresAt: row.session.expiresAt.getTime(),
    };
    if (!this.isLive(session, now)) {
      this.cache.delete(token);
      await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
      return null;
    }
    if (now - session.lastSeenAt > TOUCH_EVERY_MS) {
      session.lastSeenAt = now;
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.tokenHash, tokenHash));
    }
    if (generation !== this.generation) return session;
    this.cache.set(token, { session, until: now + this.policy.cacheMs });
    if (this.cache.size > 50_000) this.evictExpired(now);
    return session;
  }

  private isLive(s: ResolvedSession, now: number): boolean {
    return now < s.expiresAt && now - s.lastSeenAt < this.policy.idleMs;
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.cache) if (entry.until <= now) this.cache.delete(key);
  }

  async revoke(token: string): Promise<void> {
    this.generation++;
    this.cache.delete(token);
    const tokenHash = hashToken(token);
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    this.announce(`token:${tokenHash}`);
  }

  /** Ends every session of a user, or every one but `keepToken` (password change keeps the current one). */
  async revokeUser(userId: string, keepToken?: string): Promise<void> {
    this.forgetUser(userId);
    await this.db
      .delete(sessions)
      .where(ofAccount(sessions, userId, keepToken ? ne(sessions.tokenHash, hashToken(keepToken)) : undefined));
    // After the delete: another process that reads the user again finds the sessions gone.
    this.announce(`user:${userId}`);
  }

  /** Drops cached sessions of a user, here and in every process, so the next request reads the changed account. */
  forgetUser(userId: string): void {
    this.generation++;
    this.dropUser(userId);
    this.announce(`user:${userId}`);
  }

  /** A change to an account reaches its members' sessions too (its plan, its deactivation). */
  private dropUser(userId: string): void {
    for (const [key, entry] of this.cache) {
      if (entry.session.user.id === userId || entry.session.account.id === userId) this.cache.delete(key);
    }
  }

  clearCache(): void {
    this.generation++;
    this.cache.clear();
    this.announce('all');
  }
}
