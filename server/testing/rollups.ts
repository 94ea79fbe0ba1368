import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/** An account's rollups as stored, the zero rows left out. */
async function rollupSnapshot(db: Db, userId: string) {
  const exec = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await db.execute(q));
  return {
    campaigns: await exec(sql`
      select campaign_id, hour::text, sent, delivered, read, failed from stats_campaign_hours
      where user_id = ${userId} and (sent, delivered, read, failed) <> (0, 0, 0, 0) order by 1, 2`),
    chat: await exec(sql`
      select hour::text, bot_replies, inbound, answered, conversations from stats_chat_hours
      where user_id = ${userId} and (bot_replies, inbound, answered, conversations) <> (0, 0, 0, 0) order by 1`),
    contacts: await exec(sql`
      select day::text, total, active from stats_contact_days
      where user_id = ${userId} and (total, active) <> (0, 0) order by 1`),
  };
}

/**
 * The account's rollups as the triggers kept them must equal stats_rebuild's recount of its rows;
 * answers them, for checks of their own.
 */
export async function rollupsMatchRows(db: Db, userId: string) {
  const kept = await rollupSnapshot(db, userId);
  await db.execute(sql`select stats_rebuild(${userId}::uuid)`);
  expect(kept).toEqual(await rollupSnapshot(db, userId));
  return kept;
}
