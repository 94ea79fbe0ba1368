import { sql } from 'drizzle-orm';
import type { ActivityEvent, ActivityKind, ActivityPage, ActivityQuery } from '../../../contract/activity';
import {
  ACTIVE_USERS_MAX,
  type ActiveUsers,
  ONLINE_WINDOW_MS,
  type OnlineCount,
  RECENT_WINDOW_MS,
} from '../../../contract/presence';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { AccountContext } from '../../plugins/account-context';
import type { PresenceTracker } from '../../records/presence-tracker';

interface Seen {
  userId: string;
  name: string;
  lastSeen: number;
}

const toMs = (v: string | Date | null): number => (v === null ? 0 : new Date(v).getTime());

/**
 * Accounts with a request in the last 24 hours, newest first: the column (written by every process,
 * at most a minute late) merged with this process's tracker (the newest). An administrator sees the
 * whole platform; anyone else only its own account's people (its owner and its team's members).
 */
async function recentlySeen(db: Db, tracker: PresenceTracker, viewer: AccountContext): Promise<Seen[]> {
  const now = tracker.time();
  const since = now - RECENT_WINDOW_MS;
  if (viewer.role !== 'admin') {
    // The account's people: its owner and its team's members.
    const rows = rowsOf<{ id: string; name: string; last_seen_at: string | Date | null }>(
      await db.execute(
        sql`select id, name, last_seen_at from users where id = ${viewer.userId} or account_id = ${viewer.userId}`,
      ),
    );
    return rows
      .map((r) => ({
        userId: r.id,
        name: r.name,
        lastSeen: Math.max(toMs(r.last_seen_at), tracker.lastSeen(r.id) ?? 0),
      }))
      .filter((s) => s.lastSeen >= since)
      .sort((a, b) => b.lastSeen - a.lastSeen);
  }
  const mine = tracker.seenSince(since);
  const ids = [...mine.keys()];
  const rows = rowsOf<{ id: string; name: string; last_seen_at: string | Date | null }>(
    await db.execute(sql`
      select id, name, last_seen_at from users
      where last_seen_at >= ${new Date(since).toISOString()}::timestamptz
        ${
          ids.length
            ? sql`or id in (${sql.join(
                ids.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`
            : sql``
        }`),
  );
  return rows
    .map((r) => ({ userId: r.id, name: r.name, lastSeen: Math.max(toMs(r.last_seen_at), mine.get(r.id) ?? 0) }))
    .filter((s) => s.lastSeen >= since)
    .sort((a, b) => b.lastSeen - a.lastSeen);
}

/** SPEC §3 online count: online in the last 2 minutes, offline recently within 24 hours; totalActive is both. */
export async function getOnlineCount(db: Db, tracker: PresenceTracker, viewer: AccountContext): Promise<OnlineCount> {
  const seen = await recentlySeen(db, tracker, viewer);
  const onlineSince = tracker.time() - ONLINE_WINDOW_MS;
  const currentlyOnline = seen.filter((s) => s.lastSeen >= onlineSince).length;
  return { currentlyOnline, offlineRecently: seen.length - currentlyOnline, totalActive: seen.length };
}

/** SPEC §3 active users: who was active in the last 24 hours, newest first, whether online now. */
export async function listActiveUsers(db: Db, tracker: PresenceTracker, viewer: AccountContext): Promise<ActiveUsers> {
  const seen = await recentlySeen(db, tracker, viewer);
  const onlineSince = tracker.time() - ONLINE_WINDOW_MS;
  return {
    activeUsers: seen.slice(0, ACTIVE_USERS_MAX).map((s) => ({
      userId: s.userId,
      name: s.name,
      isOnline: s.lastSeen >= onlineSince,
      lastSeen: new Date(s.lastSeen).toISOString(),
    })),
  };
}

/**
 * One page of the activity log, newest first. A customer always gets its own account's, whatever
 * `userId` says; an administrator gets the account asked for, or every account's.
 */
export async function listActivity(db: Db, viewer: AccountContext, query: ActivityQuery): Promise<ActivityPage> {
  const { page, limit } = query;
  const accountId = viewer.role === 'admin' ? (query.userId ?? null) : viewer.user.id;
  const where = accountId ? sql`where ${accountSql(accountId, 'e.user_id')}` : sql``;
  const rows = rowsOf<{
    id: string;
    kind: ActivityKind;
    detail: string;
    created_at: string | Date;
    user_id: string;
    user_name: string;
    actor_id: string | null;
    actor_name: string | null;
  }>(
    await db.execute(sql`
      select e.id, e.kind, e.detail, e.created_at, e.user_id, u.name as user_name, e.actor_id, a.name as actor_name
      from activity_events e
      join users u on u.id = e.user_id
      left join users a on a.id = e.actor_id
      ${where}
      order by e.created_at desc, e.id desc
      limit ${limit} offset ${(page - 1) * limit}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from activity_events e ${where}`),
  );
  const events: ActivityEvent[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    detail: r.detail,
    createdAt: new Date(r.created_at).toISOString(),
    userId: r.user_id,
    userName: r.user_name,
    actorId: r.actor_id,
    actorName: r.actor_name,
  }));
  return { events, page, limit, total: Number(total), scope: accountId ? 'account' : 'all' };
}
