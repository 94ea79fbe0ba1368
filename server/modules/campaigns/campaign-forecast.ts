import { isNull, sql } from 'drizzle-orm';
import type { CampaignForecast } from '../../../contract/campaigns';
import { type ConnectionSettings, withNumberSettings } from '../../../contract/connections';
import { startOfSaoPauloDay } from '../../../contract/sao-paulo-time';
import { forecastSend } from '../../../contract/send-forecast';
import type { BusinessHours } from '../../../contract/sending-time';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { connections } from '../../db/schema';
import { getAccountSettings } from '../settings';

/** The sending settings a forecast reads: the account's, or a number's with its own where it has them. */
interface Pace extends BusinessHours {
  messageDelay: number;
  dailyLimit: number;
}

interface NumberFacts {
  id: string;
  isDefault: boolean;
  paused: boolean;
  stopReason: string | null;
  settings: ConnectionSettings;
}

/** What every forecast of one account reads, once per request. */
export interface ForecastFacts {
  now: Date;
  channel: 'personal' | 'cloud';
  account: Pace;
  cloudThroughput: number;
  numbers: NumberFacts[];
  /** Campaign messages sent since São Paulo midnight, per number (rows without one under ''). */
  sentToday: Map<string, number>;
}

/** A number sends nothing while it is in one of these states: it adds no pace to a forecast (a constant). */
const NOT_SENDING: ReadonlySet<string> = new Set(['disconnected', 'logged_out', 'restricted']);

/** The account's settings, numbers and today's sends: one read each. */
export async function readForecastFacts(
  db: Db,
  userId: string,
  cloudThroughput: number,
  now: Date = new Date(),
): Promise<ForecastFacts> {
  const s = await getAccountSettings(db, userId);
  const numbers = await db
    .select({
      id: connections.id,
      isDefault: connections.isDefault,
      paused: connections.paused,
      stopReason: connections.stopReason,
      settings: connections.settings,
    })
    .from(connections)
    .where(ofAccount(connections, userId, isNull(connections.deletedAt)));
  const sent = rowsOf<{ connection_id: string | null; n: number }>(
    await db.execute(sql`
      select connection_id, count(*)::int as n from campaign_recipients
      where ${accountSql(userId)} and sent_at >= ${startOfSaoPauloDay(now).toISOString()}::timestamptz
      group by connection_id`),
  );
  return {
    now,
    channel: s.channel,
    account: {
      messageDelay: s.messageDelay,
      dailyLimit: s.dailyLimit,
      respectBusinessHours: s.respectBusinessHours,
      businessStart: s.businessStart,
      businessEnd: s.businessEnd,
      businessDays: s.businessDays,
    },
    cloudThroughput,
    numbers,
    sentToday: new Map(sent.map((r) => [r.connection_id ?? '', r.n])),
  };
}

/**
 * When `recipients` more messages of a campaign sent by `connectionIds` (none: the default number)
 * should be out, from `facts`: the one forecast the send confirmation and the campaign card show.
 * One number: its pace, its daily limit and what it sent today, its business hours. Several: they
 * send side by side, so the pace divides by the ones able to send and their daily limits add up;
 * the account's business hours.
 */
export function forecastCampaign(
  facts: ForecastFacts,
  campaign: { recipients: number; connectionIds?: readonly string[] | null },
): CampaignForecast {
  const chosenIds = campaign.connectionIds ?? [];
  const chosen = chosenIds.length
    ? facts.numbers.filter((n) => chosenIds.includes(n.id))
    : facts.numbers.filter((n) => n.isDefault);
  const sentBy = (n: NumberFacts) =>
    (facts.sentToday.get(n.id) ?? 0) + (n.isDefault ? (facts.sentToday.get('') ?? 0) : 0);
  let pace: Pace;
  let sentToday: number;
  if (chosen.length <= 1) {
    const one = chosen[0];
    pace = one ? withNumberSettings(facts.account, one.settings) : facts.account;
    sentToday = one ? sentBy(one) : [...facts.sentToday.values()].reduce((a, b) => a + b, 0);
  } else {
    const paces = chosen.map((n) => withNumberSettings(facts.account, n.settings));
    const able = chosen.filter((n) => !n.paused && !NOT_SENDING.has(n.stopReason ?? ''));
    const meanDelay = paces.reduce((sum, p) => sum + p.messageDelay, 0) / paces.length;
    pace = {
      ...facts.account,
      messageDelay: meanDelay / Math.max(1, able.length),
      dailyLimit: paces.reduce((sum, p) => sum + p.dailyLimit, 0),
    };
    sentToday = chosen.reduce((sum, n) => sum + sentBy(n), 0);
  }
  const forecast = forecastSend({
    ...pace,
    recipients: campaign.recipients,
    channel: facts.channel,
    sentToday,
    cloudThroughput: facts.cloudThroughput,
    now: facts.now,
  });
  return {
    finishAt: forecast.finishAt?.toISOString() ?? null,
    waitsForDailyLimit: forecast.waitsForDailyLimit,
    waitsForBusinessHours: forecast.waitsForBusinessHours,
    channel: facts.channel,
    dailyLimit: pace.dailyLimit,
    businessStart: pace.businessStart,
    businessEnd: pace.businessEnd,
  };
}
