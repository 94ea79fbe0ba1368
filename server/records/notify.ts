import { is, SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../contract/constants';
import { NOTIFICATIONS_KEPT, type NotificationKind, notificationSettingOf } from '../../contract/notifications';
import { type AccountRef, accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { accountSettings } from '../db/schema';

/** Where a recording that failed is reported. */
export type ErrorLog = Pick<FastifyBaseLogger, 'error'>;

export interface NewNotification {
  kind: NotificationKind;
  title: string;
  body: string;
  /** A path of the browser app (contract/notifications.ts `notificationLinks`). */
  link?: string | null;
}

/** Stored text: no NUL (PostgreSQL refuses it in text), bounded length. */
export const storedText = (s: string, max: number) => s.replaceAll('\0', '').slice(0, max);

/**
 * The recipient's setting for this kind, or true when the kind has none (contract `notificationSettingOf`):
 * the one account's, or (a column of the recipients, `r.id`) each recipient's own.
 */
function wanted(kind: NotificationKind, recipient: AccountRef | SQL): SQL {
  const setting = notificationSettingOf[kind];
  if (!setting) return sql`true`;
  const whose = is(recipient, SQL) ? sql`${accountSettings.userId} = ${recipient}` : accountSql(recipient);
  return sql`coalesce((select ${accountSettings[setting]} from account_settings where ${whose}), ${DEFAULT_NOTIFICATION_SETTINGS[setting]})`;
}

/**
 * Keeps the newest NOTIFICATIONS_KEPT of each recipient. The parts of one statement do not see the
 * rows it inserts, so of the rows already there the newest KEPT - 1 stay.
 */
const PRUNE_INSERTED = sql`
  delete from notifications where id in (
    select id from (
      select id, row_number() over (partition by user_id order by created_at desc, id desc) as n
      from notifications join (select distinct user_id from ins) recipients using (user_id)
    ) ranked where n >= ${NOTIFICATIONS_KEPT}
  )`;

/** Inserts the notification for the recipients `where` lets through; answers how many. Throws on failure. */
async function insertFor(db: Db, recipients: SQL, n: NewNotification, where: SQL): Promise<number> {
  const result = await db.execute(sql`
    with ins as (
      insert into notifications (user_id, kind, title, body, link)
      select r.id, ${n.kind}, ${storedText(n.title, 200)}, ${storedText(n.body, 1000)}, ${n.link ?? null}
      from (${recipients}) as r(id) where ${where}
      returning user_id
    ), pruned as (${PRUNE_INSERTED})
    select count(*)::int as n from ins`);
  return Number((result as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
}

async function insert(db: Db, log: ErrorLog, recipients: SQL, n: NewNotification, where: SQL): Promise<number> {
  try {
    return await insertFor(db, recipients, n, where);
  } catch (err) {
    // The event already happened; a notice that could not be stored must not undo or fail it.
    log.error({ err, kind: n.kind }, 'could not record a notification');
    return 0;
  }
}

/**
 * Inserts one account's notification unless its settings silence the kind (and prunes the oldest);
 * answers whether one was written. Throws on failure; tells no listener (see `heard`).
 */
export async function insertNotification(db: Db, userId: string, n: NewNotification): Promise<boolean> {
  return (await insertFor(db, sql`select ${userId}::uuid`, n, wanted(n.kind, userId))) > 0;
}

/** Told of each notification stored for one account; must not block (it is called, never awaited). */
export type NotificationListener = (userId: string, n: NewNotification) => void;

const listeners = new WeakMap<Db, Set<NotificationListener>>();

/**
 * Calls `listener` after each notification notify() stores through this Db (app.ts subscribes the
 * e-mail notices: the engines, which call notify() with the app's Db, need no new dependency).
 * Answers the unsubscribe.
 */
export function onNotification(db: Db, listener: NotificationListener): () => void {
  const set = listeners.get(db) ?? new Set<NotificationListener>();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Records a notification for one account, unless the account's notification settings silence its
 * kind. One statement, which also drops the account's oldest beyond NOTIFICATIONS_KEPT. Never
 * throws: answers whether one was written. Engines and modules may both call it (it takes a Db).
 * Once written, the Db's listeners (onNotification) hear of it.
 */
export async function notify(db: Db, log: ErrorLog, userId: string, n: NewNotification): Promise<boolean> {
  const user = sql`${userId}::uuid`;
  const stored = (await insert(db, log, sql`select ${user}`, n, wanted(n.kind, userId))) > 0;
  if (stored) heard(db, log, userId, n);
  return stored;
}

/** Tells the Db's listeners (onNotification) of a notification stored for `userId`. Never throws. */
export function heard(db: Db, log: ErrorLog, userId: string, n: NewNotification): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener(userId, n);
    } catch (err) {
      log.error({ err, kind: n.kind }, 'a notification listener failed');
    }
  }
}

/** Records the same notification for every administrator; answers how many got it. Never throws. */
export async function notifyAdmins(db: Db, log: ErrorLog, n: NewNotification): Promise<number> {
  return insert(db, log, sql`select id from users where account_type = 'admin'`, n, wanted(n.kind, sql`r.id`));
}
