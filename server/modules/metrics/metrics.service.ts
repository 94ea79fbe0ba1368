import { sql } from 'drizzle-orm';
import { BOT_REPLY_KINDS } from '../../../contract/bot';
import type { Metrics } from '../../../contract/metrics';
import type { Db } from '../../db/client';

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/** All dashboard figures of one account in a single round trip. */
export async function getMetrics(db: Db, userId: string): Promise<Metrics> {
  const result = (await db.execute(sql`
    select
      (select count(*) from campaign_recipients where user_id = ${userId} and status in ('sent','delivered','read'))::int as sent,
      (select count(*) from campaign_recipients where user_id = ${userId} and status = 'read')::int as read,
      (select count(*) from contacts where user_id = ${userId} and is_active and not opted_out)::int as contacts,
      (select count(*) from groups where user_id = ${userId} and is_active)::int as groups,
      (select count(*) from bot_events where user_id = ${userId} and kind in (${sql.join(
        BOT_REPLY_KINDS.map((k) => sql`${k}`),
        sql`, `,
      )}))::int as replies,
      (select count(*) from bot_events where user_id = ${userId} and kind = 'inbound')::int as inbound,
      (select count(distinct contact_phone) from bot_events
         where user_id = ${userId} and kind = 'inbound' and created_at > now() - interval '24 hours')::int as chats
  `)) as unknown as { rows: Array<Record<string, number>> };
  const r = result.rows[0];
  return {
    messagesSent: r.sent,
    activeContacts: r.contacts,
    activeGroups: r.groups,
    openRate: pct(r.read, r.sent),
    autoReplies: r.replies,
    activeChats: r.chats,
    responseRate: Math.min(100, pct(r.replies, r.inbound)),
  };
}
