import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOT_EVENT_KINDS, BOT_REPLY_KINDS } from '../../../contract/bot';
import {
  addDays,
  BEST_TIME_MIN_DELIVERED,
  bestByReadRate,
  isDay,
  metricsMsg,
  percentChange,
  rate,
  saoPauloDay,
} from '../../../contract/metrics';
import { rowsOf } from '../../db/rows';
import { recordReceipt } from '../../sending/receipts';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import { insertConnection } from '../../testing/connections';
import { rollupsMatchRows } from '../../testing/rollups';
import {
  apiCall,
  connectSimulator,
  newCustomer,
  newCustomerWithCalls,
  setAccountSettings,
  waitFor,
} from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

const ctx = simulatorAppPerFile();

const db = () => ctx.database.db;
const exec = async <T = Record<string, unknown>>(q: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(q));

/*
 * The seeded account's clock: São Paulo days relative to today. São Paulo keeps UTC−3 all year
 * (no daylight saving since 2019), so a local time is written with that offset.
 */
const today = saoPauloDay(new Date());
const day = (n: number) => addDays(today, n);
const at = (d: string, hhmm: string) => new Date(`${d}T${hhmm}:00-03:00`);
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
const weekday = (d: string) => new Date(`${d}T12:00:00Z`).getUTCDay();

const dA = day(-45); // the 30 days before the last 30
const dB = day(-20); // the last 30 days, before the last 14
const dC = day(-10); // 23:30 on this day and 00:30 on the next: the previous 7-day window
const dC1 = day(-9);
const yesterday = day(-1);

type Status = 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed' | 'skipped';

let phoneSeq = 0;
const nextPhone = () => `55119${String(8_000_000 + ++phoneSeq).padStart(7, '0')}`;

async function campaign(userId: string, name: string, createdAt: Date, status = 'completed'): Promise<string> {
  const [row] = await exec<{ id: string }>(sql`
    insert into campaigns (user_id, name, message, status, created_at)
    values (${userId}, ${name}, 'Olá', ${status}, ${createdAt.toISOString()}) returning id`);
  return row.id;
}

/** A recipient row as the engines leave it: the step times of what happened to it. */
async function recipient(
  userId: string,
  campaignId: string,
  status: Status,
  times: { sent?: Date; delivered?: Date; read?: Date; failed?: Date } = {},
  providerMessageId: string | null = null,
): Promise<string> {
  const iso = (d?: Date) => d?.toISOString() ?? null;
  const [row] = await exec<{ id: string }>(sql`
    insert into campaign_recipients (campaign_id, user_id, recipient, status, sent_at, delivered_at, read_at, failed_at, provider_message_id)
    values (${campaignId}, ${userId}, ${nextPhone()}, ${status}, ${iso(times.sent)}, ${iso(times.delivered)},
            ${iso(times.read)}, ${iso(times.failed)}, ${providerMessageId}) returning id`);
  return row.id;
}

async function contact(userId: string, createdAt: Date, opts: { isActive?: boolean; optedOut?: boolean } = {}) {
  const [row] = await exec<{ id: string }>(sql`
    insert into contacts (user_id, name, phone, is_active, opted_out, created_at)
    values (${userId}, 'Contato', ${`+${nextPhone()}`}, ${opts.isActive ?? true}, ${opts.optedOut ?? false},
            ${createdAt.toISOString()}) returning id`);
  return row.id;
}

async function group(userId: string, name: string, createdAt: Date, isActive = true) {
  await exec(sql`insert into groups (user_id, name, is_active, created_at)
                 values (${userId}, ${name}, ${isActive}, ${createdAt.toISOString()})`);
}

async function botEvent(userId: string, kind: string, createdAt: Date) {
  await exec(sql`insert into bot_events (user_id, contact_phone, kind, created_at)
                 values (${userId}, '5511999990000', ${kind}, ${createdAt.toISOString()})`);
}

/** The account's number its conversations are on (added on first use). */
async function numberOf(userId: string): Promise<string> {
  const [found] = await exec<{ id: string }>(sql`select id from connections where user_id = ${userId} limit 1`);
  return found?.id ?? (await insertConnection(db(), userId, 'personal')).id;
}

/** A conversation message as the chatbot stores it: an inbound one, or a reply that left (a provider id) or failed. */
async function message(userId: string, phone: string, direction: 'in' | 'out', createdAt: Date, sent = true) {
  const out = direction === 'out';
  await exec(sql`
    insert into conversation_messages (user_id, connection_id, phone, direction, source, text, status, provider_message_id, created_at)
    values (${userId}, ${await numberOf(userId)}, ${phone}, ${direction}, ${out ? 'bot' : 'contact'}, 'oi', ${out ? (sent ? 'sent' : 'failed') : 'received'},
            ${sent ? `wamid.${++phoneSeq}` : null}, ${createdAt.toISOString()})`);
}

async function conversation(userId: string, phone: string, lastMessageAt: Date, lastInboundAt: Date | null) {
  await exec(sql`
    insert into conversations (user_id, connection_id, phone, last_message_at, last_inbound_at)
    values (${userId}, ${await numberOf(userId)}, ${phone}, ${lastMessageAt.toISOString()}, ${lastInboundAt?.toISOString() ?? null})`);
}

/**
 * The seeded account, every figure computed by hand below. Times are São Paulo's.
 *
 * Campaign messages (✓ counted as sent; D delivered; R read; F failed):
 *   C0 (created dA): r0 read, sent dA 12:00                                     month before
 *   C1 (created dB): r1 read, r2 delivered, r3 sent, r3b sent (dB 12:00–12:06),
 *                    r4 failed dB 12:10, a queued and a skipped row              last 30 days
 *   C2 (created dC 20:00): m1 read, sent dC 23:30 (read the next morning);
 *                    m2 delivered, sent dC+1 00:30; m2b sent, dC+1 00:45         previous 7 days
 *   C3 (created yesterday 20:00): m4 delivered, sent yesterday 23:30;
 *                    m3 read 00:30, m7 delivered 00:35, m5 sent 00:40 today (through the engines'
 *                    own statements); m6 sent 00:45 then failed 00:50             last 7 days
 *   C4 (created today 00:10): draft, no rows
 */
describe('figures of a seeded account', () => {
  let userId: string;
  let cookie: string;
  const ids: Record<string, string> = {};
  const get = async (url: string) => {
    const res = await apiCall(ctx, 'GET', url, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    ({
      user: { id: userId },
      cookie,
    } = await newCustomer(ctx));
    const u = userId;

    await campaign(u, 'C5', at(dA, '08:00'), 'draft');
    ids.c0 = await campaign(u, 'C0', at(dA, '09:00'));
    await recipient(u, ids.c0, 'read', { sent: at(dA, '12:00'), delivered: at(dA, '12:01'), read: at(dA, '12:02') });

    ids.c1 = await campaign(u, 'C1', at(dB, '10:00'));
    await recipient(u, ids.c1, 'read', { sent: at(dB, '12:00'), delivered: at(dB, '12:01'), read: at(dB, '13:00') });
    await recipient(u, ids.c1, 'delivered', { sent: at(dB, '12:00'), delivered: at(dB, '12:01') });
    await recipient(u, ids.c1, 'sent', { sent: at(dB, '12:05') });
    await recipient(u, ids.c1, 'sent', { sent: at(dB, '12:06') });
    await recipient(u, ids.c1, 'failed', { failed: at(dB, '12:10') });
    await recipient(u, ids.c1, 'queued');
    await recipient(u, ids.c1, 'skipped');

    ids.c2 = await campaign(u, 'C2', at(dC, '20:00'));
    await recipient(u, ids.c2, 'read', { sent: at(dC, '23:30'), delivered: at(dC, '23:31'), read: at(dC1, '08:00') });
    await recipient(u, ids.c2, 'delivered', { sent: at(dC1, '00:30'), delivered: at(dC1, '00:31') });
    await recipient(u, ids.c2, 'sent', { sent: at(dC1, '00:45') });

    ids.c3 = await campaign(u, 'C3', at(yesterday, '20:00'), 'in_progress');
    await recipient(u, ids.c3, 'delivered', { sent: at(yesterday, '23:30'), delivered: at(yesterday, '23:31') });
    // Today's rows go through what the dispatcher and the receipts do: queued → sending → sent → …
    const queued = await Promise.all(
      ['m3', 'm7', 'm5', 'm6'].map(async (name) => [name, await recipient(u, ids.c3, 'queued', {}, `wamid.${name}`)]),
    );
    const sentAt = { m3: '00:30', m7: '00:35', m5: '00:40', m6: '00:45' } as Record<string, string>;
    for (const [name, id] of queued) {
      await exec(sql`update campaign_recipients set status = 'sending' where id = ${id}`);
      await exec(sql`
        update campaign_recipients set status = case when status in ('queued', 'sending') then 'sent' else status end,
          sent_at = coalesce(sent_at, ${at(today, sentAt[name]).toISOString()}::timestamptz)
        where id = ${id}`);
    }
    const receipt = (id: string, status: 'delivered' | 'read' | 'failed', hhmm: string) =>
      recordReceipt(db(), u, { providerMessageId: `wamid.${id}`, status, at: at(today, hhmm) });
    await receipt('m3', 'read', '00:32'); // a read that arrives first stamps delivered too…
    await receipt('m3', 'delivered', '00:33'); // …and the late delivered changes nothing
    await receipt('m7', 'delivered', '00:36');
    await receipt('m6', 'failed', '00:50');

    ids.c4 = await campaign(u, 'C4', at(today, '00:10'), 'draft');

    // Contacts: 4 active (2 created in the last 7 days), one inactive, one opted out.
    for (const c of [{}, {}, { isActive: false }, { optedOut: true }]) await contact(u, hoursAgo(20 * 24), c);
    ids.k5 = await contact(u, hoursAgo(2 * 24));
    ids.k6 = await contact(u, hoursAgo(1));
    // Groups: 2 active (one created in the last 7 days), one inactive.
    await group(u, 'Clientes', hoursAgo(20 * 24));
    await group(u, 'Antigos', hoursAgo(20 * 24), false);
    await group(u, 'Novos', hoursAgo(24));

    // Bot events: one of every kind on dB (5 replies), one auto reply in the previous 7 days, two in the last 7.
    for (const kind of BOT_EVENT_KINDS) await botEvent(u, kind, at(dB, '12:00'));
    await botEvent(u, 'auto_reply', at(dC, '12:00'));
    await botEvent(u, 'auto_reply', at(yesterday, '10:00'));
    await botEvent(u, 'auto_reply', at(today, '00:20'));
    await exec(sql`insert into auto_replies (user_id, trigger, response, is_active)
                   values (${u}, 'preço', 'R$ 10', true), (${u}, 'horário', '9h', true), (${u}, 'velho', 'x', false)`);

    // Conversations. P1: on dC the reply is stored before the message it answers (as the chatbot
    // does); on dC+1 a message, then a person's answer. P2: two messages yesterday and a reply that
    // failed, then one today answered (which answers all three). P3: one message today, unanswered.
    const [p1, p2, p3, p4] = ['5511911110001', '5511911110002', '5511911110003', '5511911110004'];
    await message(u, p1, 'out', new Date(at(dC, '23:00').getTime() + 5_000));
    await message(u, p1, 'in', at(dC, '23:00'));
    await message(u, p1, 'in', at(dC1, '00:10'));
    await message(u, p1, 'out', at(dC1, '00:20'));
    await message(u, p2, 'in', at(yesterday, '22:00'));
    await message(u, p2, 'in', at(yesterday, '22:01'));
    await message(u, p2, 'out', at(yesterday, '22:02'), false);
    await message(u, p2, 'in', at(today, '00:15'));
    await message(u, p2, 'out', at(today, '00:16'));
    await message(u, p3, 'in', at(today, '00:25'));
    await conversation(u, p1, at(dC1, '00:20'), at(dC1, '00:10'));
    await conversation(u, p2, at(today, '00:16'), at(today, '00:15'));
    await conversation(u, p3, at(today, '00:25'), at(today, '00:25'));
    // P4 was written to an hour ago but has not written for three days: not an active chat.
    await conversation(u, p4, hoursAgo(1), hoursAgo(72));

    // Another account with one of everything, today: never counted above.
    const other = (await newCustomer(ctx)).user.id;
    const oc = await campaign(other, 'Outra', at(today, '00:05'));
    await recipient(other, oc, 'read', {
      sent: at(today, '00:30'),
      delivered: at(today, '00:31'),
      read: at(today, '00:32'),
    });
    await contact(other, hoursAgo(1));
    await group(other, 'Outro', hoursAgo(1));
    await botEvent(other, 'auto_reply', at(today, '00:20'));
    await message(other, p3, 'in', at(today, '00:25'));
    await message(other, p3, 'out', at(today, '00:26'));
    await conversation(other, p3, at(today, '00:26'), at(today, '00:25'));
  });

  it('answers the SPEC §3 figures, all time', async () => {
    const m = await get('/api/metrics');
    expect(m).toMatchObject({
      messagesSent: 12, // r0, r1–r3b, m1, m2, m2b, m4, m3, m7, m5
      activeContacts: 4,
      activeGroups: 2,
      openRate: 50, // read 4 (r0, r1, m1, m3) ÷ delivered 8
      autoReplies: 8, // 5 reply kinds + 3 auto replies
      activeChats: 2, // P2 and P3 wrote in the last 24 h
      responseRate: 83.3, // answered 5 ÷ inbound 6
      delivered: 8, // r0, r1, r2, m1, m2, m4, m3, m7
      read: 4,
      failed: 2, // r4, m6
      deliveryRate: 57.1, // 8 ÷ (12 sent + 2 failed)
      inboundMessages: 6,
      answeredMessages: 5,
      period: { from: null, to: null },
    });
    expect(BOT_REPLY_KINDS).toHaveLength(5); // the count above assumes as many reply kinds
  });

  it('compares the last 7 days with the 7 before, and the last 30 with the 30 before', async () => {
    const m = await get('/api/metrics');
    expect(m.trends).toEqual({
      messagesSent: 33.3, // m4, m3, m7, m5 = 4 against m1, m2, m2b = 3
      activeContacts: 100, // 4 now against the 2 there were before k5 and k6
      activeGroups: 100, // 2 against 1
      openRate: -33.4, // 1 ÷ 3 = 33.3 % against 1 ÷ 2 = 50 %
      deliveryRate: -10, // 3 ÷ (4 + m6 failed) = 60 % against 2 ÷ 3 = 66.7 %
      autoReplies: 100, // 2 against 1
      responseRate: -25, // P2, P3: 3 ÷ 4 = 75 % against P1: 2 ÷ 2 = 100 %
    });
    expect(m.monthlyGrowth).toBe(1000); // 11 sent in the last 30 days against r0
  });

  it('applies a period of São Paulo days to every figure that has a time', async () => {
    // dC+1: m2 and m2b were sent (00:30 and 00:45); m1 at 23:30 the evening before is not.
    const next = await get(`/api/metrics?from=${dC1}&to=${dC1}`);
    expect(next).toMatchObject({
      messagesSent: 2,
      delivered: 1,
      read: 0,
      openRate: 0,
      deliveryRate: 50,
      autoReplies: 0,
      inboundMessages: 1,
      answeredMessages: 1,
      responseRate: 100,
      // The account now, whatever the period.
      activeContacts: 4,
      activeGroups: 2,
      activeChats: 2,
      period: { from: dC1, to: dC1 },
    });
    // dC: m1, read the next morning, counts as read on the day it was sent.
    expect(await get(`/api/metrics?from=${dC}&to=${dC}`)).toMatchObject({
      messagesSent: 1,
      delivered: 1,
      read: 1,
      openRate: 100,
      autoReplies: 1,
      inboundMessages: 1,
      answeredMessages: 1,
    });
    expect(await get(`/api/metrics?from=${dB}`)).toMatchObject({ messagesSent: 11, autoReplies: 8 });
    expect(await get(`/api/metrics?to=${dB}`)).toMatchObject({
      messagesSent: 5,
      delivered: 3,
      read: 2,
      autoReplies: 5,
    });
  });

  it("answers the header's figures for today's São Paulo day", async () => {
    // m3, m7, m5 today; m4 at 23:30 yesterday (02:30 UTC today) is not; m6 failed.
    expect(await get('/api/metrics/today')).toEqual({
      day: today,
      sentToday: 3,
      deliveredToday: 2,
      failedToday: 1,
      deliveryRateToday: 50, // 2 ÷ (3 + 1)
      live: true, // C3 is in progress
    });
  });

  it('answers the analytics series per São Paulo day, hour and weekday', async () => {
    const a = await get(`/api/metrics/analytics?from=${dC}&to=${dC1}`);
    expect(a.period).toEqual({ from: dC, to: dC1 });
    expect(a.days).toEqual([
      { day: dC, sent: 1, delivered: 1, read: 1, failed: 0, botReplies: 1, conversations: 1, inbound: 1, answered: 1 },
      { day: dC1, sent: 2, delivered: 1, read: 0, failed: 0, botReplies: 0, conversations: 1, inbound: 1, answered: 1 },
    ]);
    expect(a.byHour).toHaveLength(24);
    expect(a.byHour[23]).toEqual({ hour: 23, sent: 1, delivered: 1, read: 1, readRate: 100 });
    expect(a.byHour[0]).toEqual({ hour: 0, sent: 2, delivered: 1, read: 0, readRate: 0 });
    expect(a.byHour.filter((h: { sent: number }) => h.sent > 0)).toHaveLength(2);
    expect(a.byWeekday).toHaveLength(7);
    expect(a.byWeekday[weekday(dC)]).toMatchObject({ sent: 1, read: 1, readRate: 100 });
    expect(a.byWeekday[weekday(dC1)]).toMatchObject({ sent: 2, delivered: 1, read: 0 });

    // The default: the last 30 days, every day listed.
    const last30 = await get('/api/metrics/analytics');
    expect(last30.period).toEqual({ from: day(-29), to: today });
    expect(last30.days).toHaveLength(30);
    expect(last30.days.at(-1)).toEqual({
      day: today,
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 1, // m6
      botReplies: 1,
      conversations: 2, // P2 and P3
      inbound: 2,
      answered: 1,
    });
    expect(last30.days.find((d: { day: string }) => d.day === yesterday)).toMatchObject({
      sent: 1,
      conversations: 1,
      inbound: 2,
      answered: 2,
    });
  });

  it('answers the report of a period', async () => {
    const r = await get(`/api/metrics/report?from=${dB}&to=${today}`);
    expect(r.period).toEqual({ from: dB, to: today });
    expect(r.metrics).toMatchObject({
      messagesSent: 11,
      delivered: 7,
      read: 3,
      failed: 2,
      deliveryRate: 53.8,
      period: { from: dB, to: today },
    });
    const figures = (c: { name: string; sent: number; delivered: number; read: number; failed: number }) => [
      c.name,
      c.sent,
      c.delivered,
      c.read,
      c.failed,
    ];
    // Created in the period, newest first: C0 is older.
    expect(r.recentCampaigns.map(figures)).toEqual([
      ['C4', 0, 0, 0, 0],
      ['C3', 4, 3, 1, 1],
      ['C2', 3, 2, 1, 0],
      ['C1', 4, 2, 1, 1],
    ]);
    // C3: 3 delivered of 4 sent and 1 failed.
    expect(r.recentCampaigns[1]).toMatchObject({ id: ids.c3, status: 'in_progress', deliveryRate: 60, openRate: 33.3 });
    // C1 and C2 both read 50 %: C2 delivered more (66.7 % against 2 ÷ 5 = 40 %). C4 delivered nothing.
    expect(r.topCampaigns.map((c: { name: string }) => c.name)).toEqual(['C2', 'C1', 'C3']);
    expect(r.summary).toEqual({
      campaigns: 4,
      completedCampaigns: 2,
      contacts: 6,
      activeContacts: 4,
      groups: 3,
      activeGroups: 2,
      autoReplyRules: 2,
      botEnabled: true,
    });
    expect(r.analysis).toEqual({
      messagesSent: 11,
      delivered: 7,
      read: 3,
      failed: 2,
      deliveryRate: 53.8, // 7 ÷ (11 + 2)
      openRate: 42.9,
      responseRate: 83.3,
      failureRate: 15.4, // 2 ÷ 13
      averageSentPerDay: 0.5, // 11 in 21 days
      botReplies: 8,
      conversations: 5,
      bestHour: null, // fewer than BEST_TIME_MIN_DELIVERED delivered in any hour
      bestWeekday: null,
      busiestDay: { day: dB, sent: 4 },
    });
    expect(r.series.days).toHaveLength(21);
    expect(r.series.byHour[12]).toMatchObject({ sent: 4, delivered: 2, read: 1 });
    // Five newest only (C0 and C5 make six).
    const longer = await get(`/api/metrics/report?from=${dA}&to=${today}`);
    expect(longer.summary.campaigns).toBe(6);
    expect(longer.recentCampaigns.map((c: { name: string }) => c.name)).toEqual(['C4', 'C3', 'C2', 'C1', 'C0']);
  });

  it('keeps the rollups equal to a recount of the rows', async () => {
    await rollupsMatchRows(db(), userId);
  });

  it('follows contacts changing, campaigns deleted and the numbers they leave', async () => {
    await exec(sql`update contacts set opted_out = true where id = ${ids.k5}`);
    await exec(sql`update contacts set name = 'Outro nome' where id = ${ids.k6}`);
    expect((await get('/api/metrics')).activeContacts).toBe(3);
    await exec(sql`delete from contacts where id = ${ids.k6}`);
    await exec(sql`update contacts set opted_out = false where id = ${ids.k5}`);
    expect((await get('/api/metrics')).activeContacts).toBe(3);
    await exec(sql`delete from campaigns where id = ${ids.c2}`);
    expect((await get('/api/metrics')).messagesSent).toBe(9);
    await rollupsMatchRows(db(), userId);
  });
});

describe('live engines', () => {
  it('counts a campaign the dispatcher sends and the receipts the simulator returns', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await setAccountSettings(ctx, user.id, { respectBusinessHours: false });
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      apiCall(ctx, method, url, { cookie, payload });
    await connectSimulator(ctx, user.id, cookie);
    // The simulator refuses numbers ending in 0: that one fails.
    for (const phone of ['+5521998760001', '+5521998760003', '+5521998760005', '+5521998760000'])
      await exec(sql`insert into contacts (user_id, name, phone) values (${user.id}, 'Cliente', ${phone})`);
    const created = (
      await call('POST', '/api/campaigns', { name: 'Ao vivo', message: 'Oi', targetType: 'all' })
    ).json();
    await call('POST', `/api/campaigns/${created.id}/send`);
    const done = await waitFor(
      async () => (await call('GET', `/api/campaigns/${created.id}`)).json(),
      (c) => c.status === 'completed' && c.progress.read === 3,
      8000,
    );
    const m = (await call('GET', '/api/metrics')).json();
    expect(m).toMatchObject({ messagesSent: done.messagesSent, delivered: done.messagesDelivered, read: 3 });
    expect(m.messagesSent).toBe(3);
    expect((await call('GET', '/api/metrics/today')).json()).toMatchObject({
      sentToday: 3,
      failedToday: 1,
      deliveryRateToday: 75, // 3 delivered ÷ (3 sent + 1 failed)
    });
    const report = (await call('GET', '/api/metrics/report')).json();
    expect(report.recentCampaigns[0]).toMatchObject({ name: 'Ao vivo', sent: 3, delivered: 3, read: 3, failed: 1 });
    await rollupsMatchRows(db(), user.id);
  });

  it('counts what the chatbot receives and answers', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    await call('POST', '/api/bot-config', {
      isEnabled: true,
      welcomeMessage: '',
      autoReplies: [{ keyword: 'preço', response: 'A partir de R$ 10.' }],
      aiEnabled: false,
      aiModel: 'gpt-3.5-turbo',
      businessHours: { start: '00:00', end: '23:59', days: ['monday'] },
    });
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    driver.injectInbound('5521998761111', 'qual o preço?');
    driver.injectInbound('5521998762223', 'bom dia');
    await ctx.app.deps.chatbot.idle();
    const m = await waitFor(
      async () => (await call('GET', '/api/metrics')).json(),
      (v) => v.inboundMessages === 2,
    );
    expect(m).toMatchObject({ autoReplies: 1, inboundMessages: 2, answeredMessages: 1, responseRate: 50 });
    expect(m.activeChats).toBe(2);
    await rollupsMatchRows(db(), user.id);
  });
});

describe('requests', () => {
  it('refuses a bad period with a pt-BR message', async () => {
    const { cookie } = await newCustomer(ctx);
    const bad = async (url: string, message: string) => {
      const res = await apiCall(ctx, 'GET', url, { cookie });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', message });
    };
    await bad('/api/metrics?from=2026-02-30', metricsMsg.dayInvalid);
    await bad('/api/metrics?to=22/11/2026', metricsMsg.dayInvalid);
    await bad('/api/metrics?from=2026-11-10T00:00:00Z', metricsMsg.dayInvalid);
    await bad('/api/metrics/analytics?from=2026-11-10&to=2026-11-01', metricsMsg.periodOrder);
    await bad('/api/metrics/report?from=2024-01-01&to=2026-01-01', metricsMsg.periodTooLong);
    // An empty parameter is an absent one; a long period is fine where there is no daily series.
    expect((await apiCall(ctx, 'GET', '/api/metrics/analytics?from=&to=', { cookie })).statusCode).toBe(200);
    expect((await apiCall(ctx, 'GET', '/api/metrics?from=2024-01-01&to=2026-01-01', { cookie })).statusCode).toBe(200);
  });

  it('answers only a signed-in customer', async () => {
    for (const url of ['/api/metrics', '/api/metrics/today', '/api/metrics/analytics', '/api/metrics/report'])
      expect((await apiCall(ctx, 'GET', url)).statusCode).toBe(401);
    const { cookie } = await newCustomer(ctx, { accountType: 'pending', isActive: false });
    expect((await apiCall(ctx, 'GET', '/api/metrics/report', { cookie })).statusCode).toBe(403);
  });

  it('answers zeros for an empty account', async () => {
    const { cookie } = await newCustomer(ctx);
    const m = (await apiCall(ctx, 'GET', '/api/metrics', { cookie })).json();
    expect(m).toMatchObject({ messagesSent: 0, openRate: 0, responseRate: 0, monthlyGrowth: null });
    expect(Object.values(m.trends).every((t) => t === null)).toBe(true);
    const r = (await apiCall(ctx, 'GET', '/api/metrics/report', { cookie })).json();
    expect(r).toMatchObject({ recentCampaigns: [], topCampaigns: [], analysis: { busiestDay: null, bestHour: null } });
  });
});

describe('contract helpers', () => {
  it('rounds rates and changes to one decimal', () => {
    expect(rate(1, 3)).toBe(33.3);
    expect(rate(2, 3)).toBe(66.7);
    expect(rate(5, 0)).toBe(0);
    expect(percentChange(4, 3)).toBe(33.3);
    expect(percentChange(0, 2)).toBe(-100);
    expect(percentChange(3, 0)).toBeNull();
  });

  it('knows São Paulo days', () => {
    expect(saoPauloDay(new Date('2026-11-23T02:30:00Z'))).toBe('2026-11-22'); // 23:30 in São Paulo
    expect(saoPauloDay(new Date('2026-11-23T03:30:00Z'))).toBe('2026-11-23'); // 00:30
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-1-01')).toBe(false);
  });

  it('names a best send time only with enough behind it', () => {
    const few = { delivered: BEST_TIME_MIN_DELIVERED - 1, readRate: 90 };
    const a = { delivered: BEST_TIME_MIN_DELIVERED, readRate: 40 };
    const b = { delivered: BEST_TIME_MIN_DELIVERED + 5, readRate: 40 };
    expect(bestByReadRate([few])).toBeNull();
    expect(bestByReadRate([few, a, b])).toBe(b);
  });
});
