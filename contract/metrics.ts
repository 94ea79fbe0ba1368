import './zod-locale';
import { z } from 'zod';
import { CAMPAIGN_FINISHED, CAMPAIGN_PROGRESS_POLL_MS, CAMPAIGN_RUNNING, isCampaignStatusIn } from './campaigns';
import { deliveryRateTone } from './format';
import { saoPauloDay } from './sao-paulo-time';

// The dashboard's days are São Paulo days (sao-paulo-time.ts); the browser reads them from here.
export { saoPauloDay };

/*
 * The dashboard and report figures: one definition each, used by every screen (the server computes
 * them, the browser shows them). All of them are counts of stored rows:
 *
 * Campaign messages (`campaign_recipients`, one row per recipient of a campaign; `MessageCounts`
 * and `messageCounts` below, and the same rule in SQL in the rollup functions of migration 0006,
 * which triggers apply in the same statement that changes the rows):
 * - sent (messagesSent, 'Enviadas'): rows whose status is sent, delivered or read — the message
 *   left. Failed and skipped rows are not; a message that failed after it was sent is a failure,
 *   not a sent message. Its time is when the message was sent (`sent_at`; a row written without
 *   it, like the demo's sample campaign, counts when it was written).
 * - delivered ('Entregues'): of those, the ones delivered or read. read ('Lidas'): the ones read.
 *   Both are counted in the hour the message was *sent*, so delivered ≤ sent and read ≤ delivered
 *   in any period, and a period's rates describe the messages sent in it, whenever their receipts came.
 * - failed ('Falhas'): rows that failed, in the hour they failed (`failed_at`).
 * - queued, sending and skipped rows count in none of them.
 * - deliveryRate ('Taxa de entrega') = delivered ÷ (sent + failed): of the messages the engine
 *   tried, how many arrived — six failures lower it, they never leave it at 100 %.
 *   failureRate = failed ÷ (sent + failed), over the same messages. openRate = read ÷ delivered.
 *   With nothing tried (sent + failed = 0) the rate is 0 and shown without the SPEC §9 colour.
 *
 * Chatbot and conversations (`bot_events`, `conversation_messages`):
 * - autoReplies: replies the bot sent (the reply events of BOT_REPLY_KINDS in contract/bot.ts: the
 *   welcome, keyword and AI replies, the out-of-hours message and the hand-off notice), at the time
 *   sent. A reply whose send failed is not one.
 * - inbound: messages contacts sent (groups are not conversations). answered: those after which the
 *   bot or a person sent that contact a message that left (a campaign is not an answer), counted at
 *   the inbound message's time. responseRate = answered ÷ inbound.
 * - conversations (per day): contacts who wrote that São Paulo day, each once.
 *
 * The account now (no time, so no period applies):
 * - activeContacts: contacts active and not opted out; activeGroups: groups active;
 * - activeChats: contacts who wrote in the last 24 hours (a message to them is not enough).
 *
 * Rates are percentages from 0 to 100 with one decimal (`rate`), 0 when there is nothing to divide.
 * Days are São Paulo calendar days (America/Sao_Paulo); hours and weekdays too.
 *
 * Freshness: every screen showing these figures (header, campaign cards, dashboard, Relatórios)
 * reads them again at least every FIGURES_LIVE_POLL_MS while a campaign of the account is live
 * (`isLiveCampaign`), the campaign cards' own pace, and every POLL_INTERVALS_MS.todayFigures
 * otherwise; the server keeps no cache of them longer than that.
 */

/** Analytics and the report cover the last 30 days unless a period says otherwise. */
export const DEFAULT_PERIOD_DAYS = 30;
/** The longest period a daily series may cover. */
export const MAX_PERIOD_DAYS = 366;
/** Trend badges compare this many days with as many before. */
export const TREND_DAYS = 7;
/** Monthly growth compares this many days with as many before. */
export const GROWTH_DAYS = 30;
/** The report's campaign lists (SPEC §9: reports list 5, top campaigns 3). */
export const REPORT_RECENT_CAMPAIGNS = 5;
export const REPORT_TOP_CAMPAIGNS = 3;
/** The best hour or weekday to send is named only with at least this many delivered messages behind it. */
export const BEST_TIME_MIN_DELIVERED = 20;

export const metricsMsg = {
  dayInvalid: 'Data inválida. Use o formato AAAA-MM-DD, por exemplo 2026-11-22.',
  periodOrder: 'A data inicial deve ser igual ou anterior à data final.',
  periodTooLong: `O período pode ter no máximo ${MAX_PERIOD_DAYS} dias.`,
} as const;

// Pure helpers, the same on both sides.

/** part ÷ whole as a percentage with one decimal; 0 when whole is 0. */
export function rate(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** Percentage change from `previous` to `current`, one decimal; null when there is no earlier figure to compare with. */
export function percentChange(current: number, previous: number): number | null {
  return previous > 0 ? Math.round(((current - previous) / previous) * 1000) / 10 : null;
}

/** A campaign message's figures (see the definitions at the top): counts of recipient rows. */
export interface MessageCounts {
  /** Sent, delivered or read: the message left. */
  sent: number;
  /** Delivered or read. */
  delivered: number;
  read: number;
  failed: number;
}

/** Recipient rows by their current status (a campaign's `progress`): each row in exactly one. */
export interface StatusCounts {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

/** The figures of rows counted by status: a delivered row was sent too, a read one delivered and sent. */
export function messageCounts(rows: StatusCounts): MessageCounts {
  return {
    sent: rows.sent + rows.delivered + rows.read,
    delivered: rows.delivered + rows.read,
    read: rows.read,
    failed: rows.failed,
  };
}

/** Messages the engine tried: sent or failed (the denominator of the delivery and failure rates). */
export function attempted(c: Pick<MessageCounts, 'sent' | 'failed'>): number {
  return c.sent + c.failed;
}

/** 'Taxa de entrega': delivered ÷ (sent + failed), one decimal; 0 when nothing was tried. */
export function deliveryRate(c: Pick<MessageCounts, 'sent' | 'delivered' | 'failed'>): number {
  return rate(c.delivered, attempted(c));
}

/** 'Taxa de falha': failed ÷ (sent + failed), one decimal; 0 when nothing was tried. */
export function failureRate(c: Pick<MessageCounts, 'sent' | 'failed'>): number {
  return rate(c.failed, attempted(c));
}

/** 'Taxa de abertura': read ÷ delivered, one decimal; 0 when nothing was delivered. */
export function openRate(c: Pick<MessageCounts, 'delivered' | 'read'>): number {
  return rate(c.read, c.delivered);
}

/**
 * The colour of a delivery rate (SPEC §9: 90 % or more green, 70 % or more yellow, else red), or
 * neutral when nothing was tried: a 0 % there is no failure. Six failures and nothing sent is red.
 */
export function deliveryTone(
  c: Pick<MessageCounts, 'sent' | 'delivered' | 'failed'>,
): 'green' | 'yellow' | 'red' | 'neutral' {
  return attempted(c) > 0 ? deliveryRateTone(deliveryRate(c)) : 'neutral';
}

/** While a campaign is live, every screen's figures refresh this often: the campaign cards' own pace. */
export const FIGURES_LIVE_POLL_MS = CAMPAIGN_PROGRESS_POLL_MS;
/** Delivered and read receipts keep arriving for a while after a campaign's last message goes out. */
export const RECEIPTS_GRACE_MS = 2 * 60_000;
/** A scheduled campaign due within this long counts as live already (the idle poll would miss its start). */
export const SCHEDULED_LIVE_AHEAD_MS = 60_000;

/**
 * Whether a campaign's figures may be moving: it is sending or waiting to go on (in_progress), it is
 * scheduled to start within SCHEDULED_LIVE_AHEAD_MS, or it finished (completed, failed, cancelled)
 * less than RECEIPTS_GRACE_MS ago, while receipts of its last messages may still arrive. The server
 * answers the same rule as `live` in GET /api/metrics/today.
 */
export function isLiveCampaign(
  c: { status: string; scheduledAt?: string | null; finishedAt?: string | null },
  now: number = Date.now(),
): boolean {
  if (isCampaignStatusIn(CAMPAIGN_RUNNING, c.status)) return true;
  if (c.status === 'scheduled') return !c.scheduledAt || Date.parse(c.scheduledAt) - now <= SCHEDULED_LIVE_AHEAD_MS;
  if (c.finishedAt && isCampaignStatusIn(CAMPAIGN_FINISHED, c.status)) {
    const age = now - Date.parse(c.finishedAt);
    return age >= 0 && age < RECEIPTS_GRACE_MS;
  }
  return false;
}

/** A wall-clock hour ('YYYY-MM-DDTHH:00:00') moved by `n` hours of the clock face. */
export function addHours(hour: string, n: number): string {
  return new Date(Date.parse(`${hour}Z`) + n * 3_600_000).toISOString().slice(0, 19);
}

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written 'YYYY-MM-DD' (years 2000 to 2099). */
export function isDay(value: string): boolean {
  const m = DAY_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 2000 || y > 2099) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A calendar day moved by `n` days ('2026-02-28' + 1 = '2026-03-01'). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (1 for the same day). */
export function daysInPeriod(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const n = daysInPeriod(from, to);
  return Array.from({ length: Math.max(0, n) }, (_, i) => addDays(from, i));
}

// Requests.

/** A day of a period; an empty parameter (`?from=`) is an absent one. */
const day = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string({ error: metricsMsg.dayInvalid }).refine(isDay, { message: metricsMsg.dayInvalid }).optional(),
  );

/**
 * A period of São Paulo calendar days, both included: `from` and `to` as 'YYYY-MM-DD' (not instants:
 * a day is what the Período picker chooses, and the counters are kept by the hour), each optional.
 * `GET /api/metrics` without them counts everything; with `from` only, everything since that day;
 * with `to` only, everything up to that day. A bad day, or `from` after `to`, is a 400.
 */
export const periodQuery = z.object({ from: day(), to: day() }).superRefine((q, ctx) => {
  if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', message: metricsMsg.periodOrder, path: ['to'] });
});
export type PeriodQuery = z.infer<typeof periodQuery>;

/** A resolved period: both days known. */
export interface Period {
  from: string;
  to: string;
}

/**
 * The period of a daily series (analytics, report): the last DEFAULT_PERIOD_DAYS days up to `to`
 * (today when absent), or from `from` to `to`; at most MAX_PERIOD_DAYS days.
 */
export function seriesPeriod(q: PeriodQuery, today: string): Period {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  return { from: q.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1)), to };
}

export const seriesPeriodQuery = periodQuery.superRefine((q, ctx) => {
  // Refinements run on a value whose fields already failed: a day that is no day has its own message.
  if ((q.from && !isDay(q.from)) || (q.to && !isDay(q.to))) return;
  if (q.from && q.to && q.from > q.to) return;
  const p = seriesPeriod(q, saoPauloDay(new Date()));
  if (daysInPeriod(p.from, p.to) > MAX_PERIOD_DAYS)
    ctx.addIssue({ code: 'custom', message: metricsMsg.periodTooLong, path: [q.from ? 'from' : 'to'] });
});

export const customPeriodMsg = {
  fromRequired: 'Informe a data inicial.',
  toRequired: 'Informe a data final.',
} as const;

/**
 * The Relatórios page's custom period as typed in its two date inputs (and read back from the URL):
 * both days, from ≤ to, at most MAX_PERIOD_DAYS days. A field's own error comes first; the order
 * and the length are checked only when both days are good.
 */
export const customPeriodForm = z.object({ from: z.string(), to: z.string() }).superRefine((p, ctx) => {
  const dayError = (value: string, required: string) =>
    !value ? required : !isDay(value) ? metricsMsg.dayInvalid : null;
  const fromError = dayError(p.from, customPeriodMsg.fromRequired);
  const toError = dayError(p.to, customPeriodMsg.toRequired);
  if (fromError) ctx.addIssue({ code: 'custom', message: fromError, path: ['from'] });
  if (toError) ctx.addIssue({ code: 'custom', message: toError, path: ['to'] });
  if (fromError || toError) return;
  if (p.from > p.to) ctx.addIssue({ code: 'custom', message: metricsMsg.periodOrder, path: ['to'] });
  else if (daysInPeriod(p.from, p.to) > MAX_PERIOD_DAYS)
    ctx.addIssue({ code: 'custom', message: metricsMsg.periodTooLong, path: ['from'] });
});
export type CustomPeriodForm = z.infer<typeof customPeriodForm>;

// Answers.

const count = () => z.number().int().min(0);
const percent = () => z.number().min(0).max(100);
const dayString = () => z.string().regex(DAY_PATTERN);
/** Percentage change of the last TREND_DAYS days against the TREND_DAYS before; null when there is nothing earlier. */
const change = () => z.number().nullable();

export const periodEcho = z.object({
  /** The first and last São Paulo day counted; null: no bound (everything up to `to`, or since the start). */
  from: dayString().nullable(),
  to: dayString().nullable(),
});

/**
 * Trend badges: each figure over the last TREND_DAYS days against the TREND_DAYS before, as a
 * percentage change (`percentChange`), null when the earlier window has nothing (the badge is then
 * hidden). Counts compare the two windows, rolling by the hour up to now (the last 168 hours against
 * the 168 before); rates compare the rate of each window. activeContacts and activeGroups, which are
 * counts of now, compare the count now with the count without those created in the last TREND_DAYS
 * São Paulo days (today included). Always measured up to now, whatever the period.
 */
export const metricsTrends = z.object({
  messagesSent: change(),
  activeContacts: change(),
  activeGroups: change(),
  openRate: change(),
  deliveryRate: change(),
  autoReplies: change(),
  responseRate: change(),
});
export type MetricsTrends = z.infer<typeof metricsTrends>;

/** SPEC §3's seven figures, as a client written from the SPEC reads them (all numbers). */
export const specMetrics = z.object({
  messagesSent: count(),
  activeContacts: count(),
  activeGroups: count(),
  openRate: percent(),
  autoReplies: count(),
  activeChats: count(),
  responseRate: percent(),
});
export type Metrics = z.infer<typeof specMetrics>;

/** GET /api/metrics: SPEC §3's figures unchanged, and more beside them. */
export const metricsResponse = specMetrics.extend({
  delivered: count(),
  read: count(),
  failed: count(),
  /** delivered ÷ (messagesSent + failed): `deliveryRate`. */
  deliveryRate: percent(),
  inboundMessages: count(),
  answeredMessages: count(),
  trends: metricsTrends,
  /** Messages sent in the last GROWTH_DAYS days against the GROWTH_DAYS before (rolling by the hour, up to now), percentage change; null without earlier data. */
  monthlyGrowth: change(),
  period: periodEcho,
});
export type MetricsResponse = z.infer<typeof metricsResponse>;

/** GET /api/metrics/today: the header's figures for the current São Paulo day. */
export const todayMetricsResponse = z.object({
  day: dayString(),
  /** Messages sent today (and of those, delivered), and messages that failed today. */
  sentToday: count(),
  deliveredToday: count(),
  failedToday: count(),
  /** deliveredToday ÷ (sentToday + failedToday): `deliveryRate`. */
  deliveryRateToday: percent(),
  /** Some campaign of the account is live (`isLiveCampaign`): figures refresh every FIGURES_LIVE_POLL_MS. */
  live: z.boolean(),
});
export type TodayMetrics = z.infer<typeof todayMetricsResponse>;

/** One São Paulo day: campaign messages sent that day (and how many of them were delivered and read), failed that day, the chatbot. */
export const dailyFigures = z.object({
  day: dayString(),
  sent: count(),
  delivered: count(),
  read: count(),
  failed: count(),
  botReplies: count(),
  conversations: count(),
  inbound: count(),
  answered: count(),
});
export type DailyFigures = z.infer<typeof dailyFigures>;

/** Campaign messages sent in one hour of the day or one weekday, and how many of them were read. */
const sendTimeFigures = {
  sent: count(),
  delivered: count(),
  read: count(),
  /** read ÷ delivered. */
  readRate: percent(),
};
export const hourFigures = z.object({ hour: z.number().int().min(0).max(23), ...sendTimeFigures });
/** weekday: 0 = Sunday … 6 = Saturday. */
export const weekdayFigures = z.object({ weekday: z.number().int().min(0).max(6), ...sendTimeFigures });
export type HourFigures = z.infer<typeof hourFigures>;
export type WeekdayFigures = z.infer<typeof weekdayFigures>;

/** GET /api/metrics/analytics: every day of the period (zeros included), and the read rate by send hour and weekday. */
export const analyticsResponse = z.object({
  period: z.object({ from: dayString(), to: dayString() }),
  days: z.array(dailyFigures),
  /** 24 entries, hour 0 to 23 in São Paulo. */
  byHour: z.array(hourFigures),
  /** 7 entries, Sunday first. */
  byWeekday: z.array(weekdayFigures),
});
export type Analytics = z.infer<typeof analyticsResponse>;

/** A campaign's own figures (all its messages, as on the campaigns page). */
export const campaignPerformance = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  sent: count(),
  delivered: count(),
  read: count(),
  failed: count(),
  /** `deliveryRate`: delivered ÷ (sent + failed). */
  deliveryRate: percent(),
  openRate: percent(),
});
export type CampaignPerformance = z.infer<typeof campaignPerformance>;

const bestTime = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, readRate: percent(), delivered: count() }).nullable();

/**
 * GET /api/metrics/report: the Relatórios page for a period (default the last 30 days). Campaigns
 * are those created in the period, with their own figures; everything else counts what happened in
 * the period, except the account's current counts in `summary`.
 */
export const reportResponse = z.object({
  period: z.object({ from: dayString(), to: dayString() }),
  metrics: metricsResponse,
  /** The REPORT_RECENT_CAMPAIGNS newest campaigns of the period. */
  recentCampaigns: z.array(campaignPerformance),
  /**
   * The REPORT_TOP_CAMPAIGNS best campaigns of the period by read rate, then delivery rate (both
   * compared unrounded), then messages sent, then the newest; only campaigns with a delivered
   * message take part.
   */
  topCampaigns: z.array(campaignPerformance),
  summary: z.object({
    campaigns: count(),
    completedCampaigns: count(),
    contacts: count(),
    activeContacts: count(),
    groups: count(),
    activeGroups: count(),
    autoReplyRules: count(),
    botEnabled: z.boolean(),
  }),
  analysis: z.object({
    messagesSent: count(),
    delivered: count(),
    read: count(),
    failed: count(),
    deliveryRate: percent(),
    openRate: percent(),
    responseRate: percent(),
    /** `failureRate`: failed ÷ (sent + failed), the same messages the delivery rate counts. */
    failureRate: percent(),
    /** Messages sent per day of the period, one decimal. */
    averageSentPerDay: z.number().min(0),
    botReplies: count(),
    conversations: count(),
    /** The send hour and weekday with the best read rate (BEST_TIME_MIN_DELIVERED delivered at least), or null. */
    bestHour: bestTime({ hour: z.number().int().min(0).max(23) }),
    bestWeekday: bestTime({ weekday: z.number().int().min(0).max(6) }),
    /** The day with the most messages sent, or null when none was. */
    busiestDay: z.object({ day: dayString(), sent: count() }).nullable(),
  }),
  series: analyticsResponse.omit({ period: true }),
});
export type Report = z.infer<typeof reportResponse>;

/** The best of a send-time breakdown by read rate (ties: more delivered), when enough was delivered. */
export function bestByReadRate<T extends { delivered: number; readRate: number }>(items: readonly T[]): T | null {
  let best: T | null = null;
  for (const item of items) {
    if (item.delivered < BEST_TIME_MIN_DELIVERED) continue;
    if (!best || item.readRate > best.readRate || (item.readRate === best.readRate && item.delivered > best.delivered))
      best = item;
  }
  return best;
}
