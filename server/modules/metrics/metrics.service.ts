import { type SQL, sql } from 'drizzle-orm';
import { CAMPAIGN_FINISHED, CAMPAIGN_RUNNING } from '../../../contract/campaigns';
import {
  type Analytics,
  addDays,
  addHours,
  bestByReadRate,
  type CampaignPerformance,
  type DailyFigures,
  daysInPeriod,
  deliveryRate,
  eachDay,
  failureRate,
  GROWTH_DAYS,
  type HourFigures,
  type MessageCounts,
  type MetricsResponse,
  openRate,
  type Period,
  type PeriodQuery,
  percentChange,
  RECEIPTS_GRACE_MS,
  REPORT_RECENT_CAMPAIGNS,
  REPORT_TOP_CAMPAIGNS,
  type Report,
  rate,
  SCHEDULED_LIVE_AHEAD_MS,
  seriesPeriod,
  type TodayMetrics,
  TREND_DAYS,
  type WeekdayFigures,
} from '../../../contract/metrics';
import { SAO_PAULO, saoPauloDay, saoPauloHour } from '../../../contract/sao-paulo-time';
import { accountSql } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { statusIn } from '../../sending/campaign-lifecycle';

/*
 * Every figure is read from the rollups of migration 0006_metrics (stats_campaign_hours,
 * stats_chat_hours, stats_contact_days), which database triggers keep in step with the rows they
 * count: a 90-day period is a few thousand small rows whatever the number of messages. Their
 * `hour` is a São Paulo wall-clock hour, so every bound below is a constant São Paulo local time
 * and no row is converted between time zones. Groups and active chats are counted from their own
 * (small, indexed) tables. The definitions are in contract/metrics.ts, and every rate below is made
 * by its functions there (deliveryRate, openRate, failureRate) from the counts: none is written here.
 * Nothing is cached: each answer reads the rollups as the last committed statement left them, the
 * same moment the campaign cards (which count the rows) would see.
 */

const SAO_PAULO_ZONE = sql.raw(`'${SAO_PAULO}'`);
/** The instant a São Paulo day starts (for the timestamptz columns of the rows themselves). */
const dayStart = (day: string) => sql`(${day}::date::timestamp at time zone ${SAO_PAULO_ZONE})`;
const localTime = (wallClock: string) => sql`${wallClock}::timestamp`;

/** A rollup's `hour` within a period of São Paulo days (either bound may be open). */
function hourRange(from: string | null, to: string | null): SQL {
  const parts: SQL[] = [];
  if (from) parts.push(sql`and hour >= ${localTime(from)}`);
  if (to) parts.push(sql`and hour < ${localTime(addDays(to, 1))}`);
  return sql.join(parts, sql` `);
}

const TREND_HOURS = TREND_DAYS * 24;
const GROWTH_HOURS = GROWTH_DAYS * 24;

/**
 * The rolling windows of trends and growth: the last N hours up to now (the current São Paulo hour
 * and the N − 1 before it) and the N before those, as São Paulo wall-clock hours; the first day of
 * the contacts' and groups' window; and the start of the last 24 hours (active chats).
 */
function windows(now: Date) {
  const hour = saoPauloHour(now);
  return {
    trend: { cur: addHours(hour, -(TREND_HOURS - 1)), prev: addHours(hour, -(2 * TREND_HOURS - 1)) },
    growth: { cur: addHours(hour, -(GROWTH_HOURS - 1)), prev: addHours(hour, -(2 * GROWTH_HOURS - 1)) },
    /** Contacts and groups: created in the last TREND_DAYS São Paulo days, today included. */
    trendFirstDay: addDays(saoPauloDay(now), -(TREND_DAYS - 1)),
    dayAgo: new Date(now.getTime() - 24 * 3_600_000).toISOString(),
  };
}

/** Sums of counters over a period and over two consecutive windows, as `<name>`, `<name>_cur`, `<name>_prev`. */
function sums(columns: string[], period: SQL | null, win: { cur: string; prev: string }): SQL {
  return sql.join(
    columns.map((c) => {
      const col = sql.identifier(c);
      return sql`coalesce(sum(${col}) ${period ? sql`filter (where ${period})` : sql``}, 0)::int as ${col},
        coalesce(sum(${col}) filter (where hour >= ${localTime(win.cur)}), 0)::int as ${sql.identifier(`${c}_cur`)},
        coalesce(sum(${col}) filter (where hour >= ${localTime(win.prev)} and hour < ${localTime(win.cur)}), 0)::int
          as ${sql.identifier(`${c}_prev`)}`;
    }),
    sql`, `,
  );
}

interface AccountRow {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  bot_replies: number;
  inbound: number;
  answered: number;
  sent_cur: number;
  sent_prev: number;
  delivered_cur: number;
  delivered_prev: number;
  read_cur: number;
  read_prev: number;
  failed_cur: number;
  failed_prev: number;
  month_sent_cur: number;
  month_sent_prev: number;
  bot_replies_cur: number;
  bot_replies_prev: number;
  inbound_cur: number;
  inbound_prev: number;
  answered_cur: number;
  answered_prev: number;
  contacts: number;
  active_contacts: number;
  new_active_contacts: number;
  groups: number;
  active_groups: number;
  new_active_groups: number;
  active_chats: number;
}

/**
 * Every count behind the metrics of one account, for a period (open bounds allowed), in one round
 * trip: one pass over each rollup of the account (from the period's start or the windows', the
 * earlier), the period and the windows told apart by FILTER.
 */
async function loadAccountCounts(
  db: Db,
  userId: string,
  from: string | null,
  to: string | null,
  /** false: the caller counts the chatbot's period itself (the report, from its daily series). */
  chatPeriodTotals = true,
): Promise<AccountRow> {
  const w = windows(new Date());
  const bounds: SQL[] = [];
  if (from) bounds.push(sql`hour >= ${localTime(from)}`);
  if (to) bounds.push(sql`hour < ${localTime(addDays(to, 1))}`);
  const period = bounds.length ? sql.join(bounds, sql` and `) : null;
  // The rows the period or the windows need: from the earlier of their starts.
  const since = from ? sql`and hour >= ${localTime(from < w.growth.prev ? from : w.growth.prev)}` : sql``;
  const chatSince = !chatPeriodTotals
    ? sql`and hour >= ${localTime(w.trend.prev)}`
    : from
      ? sql`and hour >= ${localTime(from < w.trend.prev ? from : w.trend.prev)}`
      : sql``;
  const [row] = rowsOf<AccountRow>(
    await db.execute(sql`
      select * from (
        select ${sums(['sent', 'delivered', 'read', 'failed'], period, w.trend)},
          coalesce(sum(sent) filter (where hour >= ${localTime(w.growth.cur)}), 0)::int as month_sent_cur,
          coalesce(sum(sent) filter (where hour >= ${localTime(w.growth.prev)} and hour < ${localTime(w.growth.cur)}), 0)::int
            as month_sent_prev
        from stats_campaign_hours where ${accountSql(userId)} ${since}
      ) messages, (
        select ${sums(['bot_replies', 'inbound', 'answered'], chatPeriodTotals ? period : sql`false`, w.trend)}
        from stats_chat_hours where ${accountSql(userId)} ${chatSince}
      ) chat, (
        select coalesce(sum(total), 0)::int as contacts, coalesce(sum(active), 0)::int as active_contacts,
               coalesce(sum(active) filter (where day >= ${w.trendFirstDay}::date), 0)::int as new_active_contacts
        from stats_contact_days where ${accountSql(userId)}
      ) contact_counts, (
        select count(*)::int as groups, (count(*) filter (where is_active))::int as active_groups,
               (count(*) filter (where is_active and created_at >= (select ${dayStart(w.trendFirstDay)})))::int
                 as new_active_groups
        from groups where ${accountSql(userId)}
      ) group_counts, (
        select count(*)::int as active_chats from conversations
        where ${accountSql(userId)} and last_message_at >= ${w.dayAgo}::timestamptz
          and last_inbound_at >= ${w.dayAgo}::timestamptz
      ) chats
    `),
  );
  return row;
}

/** The campaign-message counts of the period, or of one of the trend windows. */
function messages(r: AccountRow, window: '' | '_cur' | '_prev' = ''): MessageCounts {
  return {
    sent: r[`sent${window}`],
    delivered: r[`delivered${window}`],
    read: r[`read${window}`],
    failed: r[`failed${window}`],
  };
}

function toMetrics(r: AccountRow, from: string | null, to: string | null): MetricsResponse {
  /** A rate's change between the two windows, or null when the earlier window had nothing to divide. */
  const rateChange = (cur: number, prev: number, prevWhole: number) =>
    prevWhole > 0 ? percentChange(cur, prev) : null;
  const counts = messages(r);
  const cur = messages(r, '_cur');
  const prev = messages(r, '_prev');
  return {
    messagesSent: counts.sent,
    activeContacts: r.active_contacts,
    activeGroups: r.active_groups,
    openRate: openRate(counts),
    autoReplies: r.bot_replies,
    activeChats: r.active_chats,
    responseRate: rate(r.answered, r.inbound),
    delivered: counts.delivered,
    read: counts.read,
    failed: counts.failed,
    deliveryRate: deliveryRate(counts),
    inboundMessages: r.inbound,
    answeredMessages: r.answered,
    trends: {
      messagesSent: percentChange(r.sent_cur, r.sent_prev),
      activeContacts: percentChange(r.active_contacts, r.active_contacts - r.new_active_contacts),
      activeGroups: percentChange(r.active_groups, r.active_groups - r.new_active_groups),
      openRate: rateChange(openRate(cur), openRate(prev), prev.delivered),
      deliveryRate: rateChange(deliveryRate(cur), deliveryRate(prev), prev.sent + prev.failed),
      autoReplies: percentChange(r.bot_replies_cur, r.bot_replies_prev),
      responseRate: rateChange(
        rate(r.answered_cur, r.inbound_cur),
        rate(r.answered_prev, r.inbound_prev),
        r.inbound_prev,
      ),
    },
    monthlyGrowth: percentChange(r.month_sent_cur, r.month_sent_prev),
    period: { from, to },
  };
}

/** The dashboard figures of one account (SPEC §3), for a period of São Paulo days or everything. */
export async function getMetrics(db: Db, userId: string, q: PeriodQuery = {}): Promise<MetricsResponse> {
  const from = q.from ?? null;
  const to = q.to ?? null;
  return toMetrics(await loadAccountCounts(db, userId, from, to), from, to);
}

/**
 * The header: messages sent today (São Paulo day), how many of them were delivered, the messages
 * that failed today, and whether a campaign is live (`isLiveCampaign`, the same rule in SQL), so
 * every screen's figures follow it at the campaign cards' pace.
 */
export async function getTodayMetrics(db: Db, userId: string): Promise<TodayMetrics> {
  const day = saoPauloDay(new Date());
  const [r] = rowsOf<{ sent: number; delivered: number; failed: number; live: boolean }>(
    await db.execute(sql`
      select coalesce(sum(sent), 0)::int as sent, coalesce(sum(delivered), 0)::int as delivered,
             coalesce(sum(failed), 0)::int as failed,
             exists (
               select 1 from campaigns c where ${accountSql(userId, 'c.user_id')} and (
                 c.status ${statusIn(CAMPAIGN_RUNNING)}
                 or (c.status = 'scheduled'
                     and (c.scheduled_at is null
                          or c.scheduled_at <= now() + ${`${SCHEDULED_LIVE_AHEAD_MS} milliseconds`}::interval))
                 or (c.status ${statusIn(CAMPAIGN_FINISHED)}
                     and c.finished_at > now() - ${`${RECEIPTS_GRACE_MS} milliseconds`}::interval
                     and c.finished_at <= now()))
             ) as live
      from stats_campaign_hours where ${accountSql(userId)} ${hourRange(day, day)}
    `),
  );
  return {
    day,
    sentToday: r.sent,
    deliveredToday: r.delivered,
    failedToday: r.failed,
    deliveryRateToday: deliveryRate(r),
    live: r.live,
  };
}

interface SeriesRow {
  /** 3: a day, 5: an hour of the day, 6: a weekday (GROUPING bits of day, hod, dow); -1: a day of the chatbot. */
  g: number;
  day: string | null;
  hod: number | null;
  dow: number | null;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  bot_replies: number;
  conversations: number;
  inbound: number;
  answered: number;
}

/** Per São Paulo day, hour of day and weekday of a period, in one round trip over the rollups. */
async function loadSeries(db: Db, userId: string, p: Period): Promise<Omit<Analytics, 'period'>> {
  const range = hourRange(p.from, p.to);
  const rows = rowsOf<SeriesRow>(
    await db.execute(sql`
      select grouping(day, hod, dow)::int as g, to_char(day, 'YYYY-MM-DD') as day, hod, dow, sum(sent)::int as sent,
             sum(delivered)::int as delivered, sum(read)::int as read, sum(failed)::int as failed,
             0 as bot_replies, 0 as conversations, 0 as inbound, 0 as answered
      from (
        select hour::date as day, extract(hour from hour)::int as hod, extract(dow from hour)::int as dow,
               sent, delivered, read, failed
        from stats_campaign_hours where ${accountSql(userId)} ${range}
      ) x
      group by grouping sets ((day), (hod), (dow))
      union all
      select -1, to_char(hour::date, 'YYYY-MM-DD'), null, null, 0, 0, 0, 0,
             sum(bot_replies)::int, sum(conversations)::int, sum(inbound)::int, sum(answered)::int
      from stats_chat_hours where ${accountSql(userId)} ${range}
      group by hour::date
    `),
  );
  const days = new Map<string, DailyFigures>(
    eachDay(p.from, p.to).map((day) => [
      day,
      { day, sent: 0, delivered: 0, read: 0, failed: 0, botReplies: 0, conversations: 0, inbound: 0, answered: 0 },
    ]),
  );
  const sendTime = () => ({ sent: 0, delivered: 0, read: 0, readRate: 0 });
  const byHour: HourFigures[] = Array.from({ length: 24 }, (_, hour) => ({ hour, ...sendTime() }));
  const byWeekday: WeekdayFigures[] = Array.from({ length: 7 }, (_, weekday) => ({ weekday, ...sendTime() }));
  const fill = (target: { sent: number; delivered: number; read: number; readRate: number }, r: SeriesRow) => {
    target.sent = r.sent;
    target.delivered = r.delivered;
    target.read = r.read;
    target.readRate = openRate(r);
  };
  for (const r of rows) {
    if (r.g === 3 || r.g === -1) {
      const d = r.day ? days.get(r.day) : undefined;
      if (!d) continue;
      if (r.g === 3) {
        d.sent = r.sent;
        d.delivered = r.delivered;
        d.read = r.read;
        d.failed = r.failed;
      } else {
        d.botReplies = r.bot_replies;
        d.conversations = r.conversations;
        d.inbound = r.inbound;
        d.answered = r.answered;
      }
    } else if (r.g === 5 && r.hod !== null) fill(byHour[r.hod], r);
    else if (r.g === 6 && r.dow !== null) fill(byWeekday[r.dow], r);
  }
  return { days: [...days.values()], byHour, byWeekday };
}

/** The Analytics tab: sent, delivered, read, bot replies and conversations per day; read rate by send hour and weekday. */
export async function getAnalytics(db: Db, userId: string, q: PeriodQuery = {}): Promise<Analytics> {
  const period = seriesPeriod(q, saoPauloDay(new Date()));
  return { period, ...(await loadSeries(db, userId, period)) };
}

interface CampaignRow {
  id: string;
  name: string;
  status: string;
  created_at: string;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

interface CampaignsRow {
  campaigns: number;
  completed: number;
  rules: number;
  bot_enabled: boolean;
  recent: CampaignRow[] | string;
  top: CampaignRow[] | string;
}

/**
 * The campaigns created in a period, with their own figures: how many, how many completed, the
 * newest and the best (by read rate, then delivery rate, then messages sent, then the newest; the
 * ratios compared unrounded), with the bot's summary, in one row.
 */
async function loadCampaigns(db: Db, userId: string, p: Period) {
  const [row] = rowsOf<CampaignsRow>(
    await db.execute(sql`
      with t as (
        select c.id, c.name, c.status, c.created_at,
               coalesce(sum(h.sent), 0)::int as sent, coalesce(sum(h.delivered), 0)::int as delivered,
               coalesce(sum(h.read), 0)::int as read, coalesce(sum(h.failed), 0)::int as failed
        from campaigns c left join stats_campaign_hours h on h.campaign_id = c.id
        where ${accountSql(userId, 'c.user_id')} and c.created_at >= ${dayStart(p.from)} and c.created_at < ${dayStart(addDays(p.to, 1))}
        group by c.id
      )
      select (select count(*)::int from t) as campaigns,
             (select count(*)::int from t where status = 'completed') as completed,
             (select count(*)::int from auto_replies where ${accountSql(userId)} and is_active) as rules,
             coalesce((select is_enabled from bot_configs where ${accountSql(userId)}), true) as bot_enabled,
             (select coalesce(json_agg(r), '[]') from (
                select * from t order by created_at desc, id limit ${REPORT_RECENT_CAMPAIGNS}) r) as recent,
             (select coalesce(json_agg(b), '[]') from (
                select * from t where delivered > 0
                order by read::float8 / delivered desc, delivered::float8 / greatest(sent + failed, 1) desc, sent desc,
                         created_at desc, id
                limit ${REPORT_TOP_CAMPAIGNS}) b) as top
    `),
  );
  const list = (v: CampaignRow[] | string): CampaignPerformance[] =>
    (typeof v === 'string' ? (JSON.parse(v) as CampaignRow[]) : v).map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
      sent: r.sent,
      delivered: r.delivered,
      read: r.read,
      failed: r.failed,
      deliveryRate: deliveryRate(r),
      openRate: openRate(r),
    }));
  return { ...row, recent: list(row.recent), top: list(row.top) };
}

/** The Relatórios page for a period (default the last 30 days): see `reportResponse` in the contract. */
export async function getReport(db: Db, userId: string, q: PeriodQuery = {}): Promise<Report> {
  const period = seriesPeriod(q, saoPauloDay(new Date()));
  const [windowed, series, campaigns] = await Promise.all([
    loadAccountCounts(db, userId, period.from, period.to, false),
    loadSeries(db, userId, period),
    loadCampaigns(db, userId, period),
  ]);
  // The chatbot's totals of the period are the sums of its days: its rollup rows read once.
  const total = (key: 'botReplies' | 'inbound' | 'answered') => series.days.reduce((n, d) => n + d[key], 0);
  const counts: AccountRow = {
    ...windowed,
    bot_replies: total('botReplies'),
    inbound: total('inbound'),
    answered: total('answered'),
  };
  const metrics = toMetrics(counts, period.from, period.to);
  const busiest = series.days.reduce<DailyFigures | null>((b, d) => (d.sent > (b?.sent ?? 0) ? d : b), null);
  const bestHour = bestByReadRate(series.byHour);
  const bestWeekday = bestByReadRate(series.byWeekday);
  return {
    period,
    metrics,
    recentCampaigns: campaigns.recent,
    topCampaigns: campaigns.top,
    summary: {
      campaigns: campaigns.campaigns,
      completedCampaigns: campaigns.completed,
      contacts: counts.contacts,
      activeContacts: counts.active_contacts,
      groups: counts.groups,
      activeGroups: counts.active_groups,
      autoReplyRules: campaigns.rules,
      botEnabled: campaigns.bot_enabled,
    },
    analysis: {
      messagesSent: counts.sent,
      delivered: counts.delivered,
      read: counts.read,
      failed: counts.failed,
      deliveryRate: metrics.deliveryRate,
      openRate: metrics.openRate,
      responseRate: metrics.responseRate,
      failureRate: failureRate(counts),
      averageSentPerDay: Math.round((counts.sent / daysInPeriod(period.from, period.to)) * 10) / 10,
      botReplies: counts.bot_replies,
      conversations: series.days.reduce((n, d) => n + d.conversations, 0),
      bestHour: bestHour && { hour: bestHour.hour, readRate: bestHour.readRate, delivered: bestHour.delivered },
      bestWeekday: bestWeekday && {
        weekday: bestWeekday.weekday,
        readRate: bestWeekday.readRate,
        delivered: bestWeekday.delivered,
      },
      busiestDay: busiest && { day: busiest.day, sent: busiest.sent },
    },
    series,
  };
}
