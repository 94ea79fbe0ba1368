import { sql } from 'drizzle-orm';
import type { ActivityKind } from '../../contract/activity';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { type ErrorLog, storedText } from './notify';

export interface NewActivity {
  /** The account the event belongs to. */
  userId: string;
  /** Who did it: the account itself, an administrator, or null for the system. */
  actorId: string | null;
  kind: ActivityKind;
  /** What it concerned: a campaign's name, a file and a count, a settings section. */
  detail?: string;
  /**
   * For a state rather than an action (connected, disconnected): written only when the account's
   * latest event among these kinds is not this one, so a state that did not change is not logged twice.
   */
  onChangeOf?: readonly ActivityKind[];
}

/** The insert of one activity row (nothing when `onChangeOf` finds the state unchanged); throws on failure. */
export async function insertActivity(db: Db, e: NewActivity): Promise<void> {
  const unchanged = e.onChangeOf?.length
    ? sql`where (select kind from activity_events where ${accountSql(e.userId)} and kind in (${sql.join(
        e.onChangeOf.map((k) => sql`${k}`),
        sql`, `,
      )}) order by created_at desc, id desc limit 1) is distinct from ${e.kind}`
    : sql``;
  await db.execute(sql`
    insert into activity_events (user_id, actor_id, kind, detail)
    select ${e.userId}::uuid, ${e.actorId}::uuid, ${e.kind}, ${storedText(e.detail ?? '', 500)}
    ${unchanged}`);
}

/**
 * Adds an event to the account's activity log (Verificação → Atividade), in one statement. Called
 * after the thing it records succeeded; never throws (a log line that could not be written must not
 * fail the action). What a route or a use case did goes through `record` (records/events.ts), which
 * also writes the event's notification; this stays for the connection alerts' state changes.
 */
export async function recordActivity(db: Db, log: ErrorLog, e: NewActivity): Promise<void> {
  try {
    await insertActivity(db, e);
  } catch (err) {
    log.error({ err, kind: e.kind }, 'could not record an activity event');
  }
}
