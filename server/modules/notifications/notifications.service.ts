import { sql } from 'drizzle-orm';
import {
  type MarkReadResponse,
  type Notification,
  type NotificationKind,
  type NotificationList,
  notificationMsg,
} from '../../../contract/notifications';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** How many of the account's notifications are unread (the partial index of unread rows answers it). */
export async function countUnread(db: Db, userId: string): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from notifications where ${accountSql(userId)} and read_at is null`),
  );
  return Number(r.n);
}

/** The account's newest notifications and its unread count. */
export async function listNotifications(db: Db, userId: string, limit: number): Promise<NotificationList> {
  const rows = rowsOf<{
    id: string;
    kind: NotificationKind;
    title: string;
    body: string;
    link: string | null;
    read_at: string | Date | null;
    created_at: string | Date;
  }>(
    await db.execute(sql`
      select id, kind, title, body, link, read_at, created_at from notifications
      where ${accountSql(userId)}
      order by created_at desc, id desc
      limit ${limit}`),
  );
  const notifications: Notification[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    link: r.link,
    read: r.read_at !== null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
  return { notifications, unread: await countUnread(db, userId) };
}

/** Marks the account's notifications read: the given ids (others' ids match nothing), or all of them. */
export async function markRead(db: Db, userId: string, ids: string[] | undefined): Promise<MarkReadResponse> {
  if (ids && ids.length === 0) {
    return { success: true, message: notificationMsg.markedRead, marked: 0, unread: await countUnread(db, userId) };
  }
  const only = ids
    ? sql`and id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  const updated = rowsOf<{ id: string }>(
    await db.execute(sql`
      update notifications set read_at = now()
      where ${accountSql(userId)} and read_at is null ${only}
      returning id`),
  );
  return {
    success: true,
    message: notificationMsg.markedRead,
    marked: updated.length,
    unread: await countUnread(db, userId),
  };
}
