import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows';
import { BLOCK_CODES, BLOCK_REASONS } from '../../sending/failures';
import { databasePerFile } from '../../testing/app-per-file';

/**
 * Each number's hourly counters (stats_number_hours, migration 0024) are kept by statement triggers
 * on campaign_recipients and whatsapp_inbound_messages. Each scenario writes many rows per statement
 * — inserts, updates moving lines between statuses, hours and numbers, receipts, requeues — and the
 * counters must then equal a recount of the rows by the same rules: sent in the hour of sent_at,
 * failed (and blocked) in the hour of failed_at while failed, received in the hour of received_at.
 */
const database = databasePerFile();

const exec = async <T = Record<string, unknown>>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(q));

let seq = 0;
async function account(): Promise<{ userId: string; a: string; b: string }> {
  const n = `${process.pid}n${Date.now().toString(36)}n${seq++}`;
  const [user] = await exec<{ id: string }>(sql`
    insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
    values ('Conta', ${`numbers${n}@example.com`}, ${`numbers${n}`}, '+55 11 90000-0000', 'x', 'active', 'enterprise', true)
    returning id`);
  const [a, b] = await exec<{ id: string }>(sql`
    insert into connections (user_id, kind, label, is_default)
    values (${user.id}, 'personal', 'A', true), (${user.id}, 'personal', 'B', false) returning id`);
  return { userId: user.id, a: a.id, b: b.id };
}

const kept = (userId: string) =>
  exec(sql`
    select connection_id, hour::text, sent, failed, blocked, inbound from stats_number_hours
    where user_id = ${userId} and (sent, failed, blocked, inbound) <> (0, 0, 0, 0) order by 1, 2`);

const recount = (userId: string) =>
  exec(sql`
    select connection_id, hour::text, sum(sent)::int as sent, sum(failed)::int as failed,
      sum(blocked)::int as blocked, sum(inbound)::int as inbound
    from (
      select connection_id, stats_hour(sent_at) as hour, 1 as sent, 0 as failed, 0 as blocked, 0 as inbound
      from campaign_recipients where user_id = ${userId} and connection_id is not null and sent_at is not null
      union all
      select connection_id, stats_hour(failed_at), 0, 1,
        (error in (${sql.join(
          BLOCK_REASONS.map((r) => sql`${r}`),
          sql`, `,
        )}) or split_part(error, ' ', 1) in (${sql.join(
          BLOCK_CODES.map((c) => sql`${String(c)}`),
          sql`, `,
        )}))::int, 0
      from campaign_recipients
      where user_id = ${userId} and connection_id is not null and status = 'failed' and failed_at is not null
      union all
      select connection_id, stats_hour(received_at), 0, 0, 0, 1
      from whatsapp_inbound_messages where user_id = ${userId} and connection_id is not null
    ) x
    group by 1, 2 having (sum(sent), sum(failed), sum(blocked), sum(inbound)) <> (0, 0, 0, 0) order by 1, 2`);

async function countersMatchRows(userId: string) {
  const counters = await kept(userId);
  expect(counters).toEqual(await recount(userId));
  return counters;
}

const T0 = '2026-03-10T12:00:00Z';
const total = (rows: Record<string, unknown>[], field: string) => rows.reduce((n, r) => n + Number(r[field]), 0);

describe("a number's hourly counters", () => {
  it('say a block exactly as the sending engine names one', async () => {
    const [r] = await exec<{ reasons: boolean; codes: boolean; others: boolean }>(sql`
      select
        bool_and(stats_is_block(e)) filter (where kind = 'reason') as reasons,
        bool_and(stats_is_block(e)) filter (where kind = 'code') as codes,
        bool_or(stats_is_block(e)) filter (where kind = 'other') as others
      from (values ${sql.join(
        [
          ...BLOCK_REASONS.map((e) => sql`('reason', ${e})`),
          ...BLOCK_CODES.map((c) => sql`('code', ${`${c} Message undeliverable`})`),
          sql`('other', 'Tipo de mensagem não suportado.')`,
          sql`('other', '1310260 Não é o código 131026')`,
          sql`('other', ${null})`,
        ],
        sql`, `,
      )}) v(kind, e)`);
    expect(r).toEqual({ reasons: true, codes: true, others: false });
  });

  it('count inserts and updates of many lines per statement, on two numbers, as a recount does', async () => {
    const { userId, a, b } = await account();
    const other = await account();
    const [campaign] = await exec<{ id: string }>(sql`
      insert into campaigns (user_id, name, message, status) values (${userId}, 'A', 'Oi', 'completed') returning id`);
    const statuses = sql`(array['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'])`;
    // 700 lines over 7 hours, on A, B or no number; failures of three kinds (two of them blocks).
    await exec(sql`
      insert into campaign_recipients (campaign_id, user_id, recipient, status, connection_id, created_at, sent_at, failed_at, error)
      select ${campaign.id}::uuid, ${userId}, 'r' || g, s,
        case g % 3 when 0 then ${a}::uuid when 1 then ${b}::uuid end,
        ${T0}::timestamptz - interval '1 day',
        case when s in ('sent', 'delivered', 'read') or (s = 'failed' and g % 2 = 0)
          then ${T0}::timestamptz + (g % 7) * interval '1 hour' end,
        case when s = 'failed' then ${T0}::timestamptz + (g % 7) * interval '1 hour' + interval '10 minutes' end,
        case when s = 'failed' then (array[${BLOCK_REASONS[0]}, '131050 Marketing opt-out', 'Outro erro'])[1 + g % 3] end
      from generate_series(1, 700) g, lateral (select ${statuses}[1 + g % 7] as s) x`);
    const first = await countersMatchRows(userId);
    expect(total(first, 'sent')).toBeGreaterThan(0);
    expect(total(first, 'blocked')).toBeGreaterThan(0);

    // Receipts (sent → delivered → read), claims (queued → sending), requeued failures, sends, new
    // failures with a block, lines moved to another hour and to another number, all in one statement.
    await exec(sql`
      update campaign_recipients set
        status = case status
          when 'sent' then 'delivered' when 'delivered' then 'read' when 'queued' then 'sending'
          when 'failed' then case when recipient like '%1' then 'queued' else 'failed' end
          when 'read' then case when recipient like '%2' then 'failed' else 'read' end
          else status end,
        failed_at = case when status = 'read' and recipient like '%2' then ${T0}::timestamptz + interval '9 hours'
          when status = 'failed' and recipient like '%1' then null else failed_at end,
        error = case when status = 'read' and recipient like '%2' then ${BLOCK_REASONS[1]} else error end,
        sent_at = case when recipient like '%3' and sent_at is not null then sent_at + interval '2 hours' else sent_at end,
        connection_id = case when recipient like '%4' then ${b}::uuid else connection_id end
      where campaign_id = ${campaign.id}`);
    await countersMatchRows(userId);
    // A claimed line sent, and a statement that changes nothing counted.
    await exec(sql`
      update campaign_recipients set status = 'sent', sent_at = ${T0}::timestamptz + interval '3 hours'
      where campaign_id = ${campaign.id} and status = 'sending'`);
    await exec(
      sql`update campaign_recipients set provider_message_id = 'p' || recipient where campaign_id = ${campaign.id}`,
    );
    await countersMatchRows(userId);

    // Messages received: many in one statement, a repeated delivery (not inserted) counts nothing.
    await exec(sql`
      insert into whatsapp_inbound_messages (user_id, connection_id, channel, from_phone, text, provider_message_id, received_at)
      select ${userId}, case when g % 2 = 0 then ${a}::uuid else ${b}::uuid end, 'simulator', '55219' || g, 'oi',
        'in-' || g, ${T0}::timestamptz + (g % 5) * interval '1 hour'
      from generate_series(1, 300) g`);
    await exec(sql`
      insert into whatsapp_inbound_messages (user_id, connection_id, channel, from_phone, text, provider_message_id)
      select ${userId}, ${a}::uuid, 'simulator', '55219' || g, 'oi', 'in-' || g from generate_series(1, 10) g
      on conflict do nothing`);
    // A data migration giving messages a number, or moving them (the app itself never updates them).
    await exec(sql`
      update whatsapp_inbound_messages set connection_id = case when from_phone like '%1' then null else ${b}::uuid end,
        received_at = received_at + interval '1 hour'
      where user_id = ${userId} and provider_message_id like 'in-2%'`);
    await countersMatchRows(userId);
    await exec(
      sql`update whatsapp_inbound_messages set connection_id = ${a}::uuid where user_id = ${userId} and connection_id is null`,
    );
    const last = await countersMatchRows(userId);
    expect(total(last, 'inbound')).toBe(300);
    // Another account's counters are its own.
    expect(await kept(other.userId)).toEqual([]);
  });
});
