import { sql } from 'drizzle-orm';
import {
  type MarkReadResponse,
  type Notification,
  type NotificationKind,
  type NotificationList,
  notificationMsg,
  PERSONAL_NOTIFICATION_KINDS,
} from '../../../contract/notifications';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { AccountContext } from '../../plugins/account-context';

/**
 * Whose notifications a login reads: the account's, and those addressed to the login itself (an
 * @mention in a note). A member does not read the mentions addressed to the owner, which are stored
 * under the account's id like the rest of its notifications.
 */
export type Reader = Pick<AccountContext, 'userId' | 'member'>;
function ofReader(reader: Reader) {
  if (reader.member.id === reader.userId) return accountSql(reader.userId);
  return sql`((${accountSql(reader.userId)} and kind not in (${sql.join(
    PERSONAL_NOTIFICATION_KINDS.map((k) => sql`${k}`),
    sql`, `,
  )})) or ${accountSql(reader.member.id)})`;
}

/** How many of the account's notifications are unread (the partial index of unread rows answers it). */
export async function countUnread(db: Db, reader: Reader): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from notifications where ${ofReader(reader)} and read_at is null`),
  );
  return Number(r.n);
}

/** The account's newest notifications and its unread count. */
export async function listNotifications(db: Db, reader: Reader, limit: number): Promise<NotificationList> {
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
      where ${ofReader(reader)}
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
  return { notifications, unread: await countUnread(db, reader) };
}

/** Marks the account's notifications read: the given ids (others' ids match nothing), or all of them. */
export async function markRead(db: Db, reader: Reader, ids: string[] | undefined): Promise<MarkReadResponse> {
  if (ids && ids.length === 0) {
    return { success: true, message: notificationMsg.markedRead, marked: 0, unread: await countUnread(db, reader) };
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
      where ${ofReader(reader)} and read_at is null ${only}
      returning id`),
  );
  return {
    success: true,
    message: notificationMsg.markedRead,
    marked: updated.length,
    unread: await countUnread(db, reader),
  };
}
