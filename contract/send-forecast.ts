import { nextSaoPauloMidnight, startOfSaoPauloDay } from './sao-paulo-time';
import { type BusinessHours, businessCloseAt, businessWindow, meanGapMs } from './sending-time';

/** Meta's default Cloud API throughput of one number (messages a second), when the server's is not known. */
export const DEFAULT_CLOUD_THROUGHPUT = 80;

export interface SendForecastInput extends BusinessHours {
  /** Messages the campaign will send. */
  recipients: number;
  channel: 'personal' | 'cloud';
  /** Seconds between two personal-number messages (plus the engine's jitter). */
  messageDelay: number;
  /** Messages a day, across all campaigns (the São Paulo day). */
  dailyLimit: number;
  /** Messages already sent today, which the daily limit counts. */
  sentToday: number;
  /** Cloud API messages a second. */
  cloudThroughput?: number;
  now: Date;
}

export interface SendForecast {
  /** When the last message is expected to go out; null when business hours never open. */
  finishAt: Date | null;
  /** The campaign will wait for the daily limit to start over at least once. */
  waitsForDailyLimit: boolean;
  /** The campaign will wait outside business hours at least once (or starts outside them). */
  waitsForBusinessHours: boolean;
}

/** A campaign longer than this is not forecast day by day (a year at the slowest settings). */
const MAX_DAYS = 400;

/**
 * When a campaign started now would end, by the rules the engine obeys: one message per mean gap on
 * a personal number (the delay plus half the jitter) or the number's throughput on the Cloud API;
 * at most the daily limit per São Paulo day (what was sent today already counts); only within
 * business hours when the account respects them. The warm-up of a newly connected number is left
 * out: the browser does not know it.
 */
export function forecastSend(input: SendForecastInput): SendForecast {
  const out: SendForecast = { finishAt: null, waitsForDailyLimit: false, waitsForBusinessHours: false };
  const gap =
    input.channel === 'cloud'
      ? 1000 / Math.max(1, input.cloudThroughput ?? DEFAULT_CLOUD_THROUGHPUT)
      : meanGapMs(input.messageDelay);
  const dailyLimit = Math.max(0, Math.floor(input.dailyLimit));
  let left = Math.max(0, Math.ceil(input.recipients));
  let t = input.now.getTime();
  if (left === 0) return { ...out, finishAt: new Date(t) };
  if (dailyLimit === 0) return out;
  let day = startOfSaoPauloDay(input.now).getTime();
  let budget = Math.max(0, dailyLimit - Math.max(0, input.sentToday));
  for (let steps = 0; steps < MAX_DAYS * 4; steps++) {
    const at = new Date(t);
    const today = startOfSaoPauloDay(at).getTime();
    if (today !== day) {
      day = today;
      budget = dailyLimit;
    }
    const window = businessWindow(input, at);
    if (!window.open) {
      if (!window.opensAt) return out;
      out.waitsForBusinessHours = true;
      t = window.opensAt.getTime();
      continue;
    }
    if (budget <= 0) {
      out.waitsForDailyLimit = true;
      t = nextSaoPauloMidnight(at).getTime();
      continue;
    }
    // Until the period closes or the day ends, whichever comes first.
    const until = Math.min(businessCloseAt(input, at).getTime(), nextSaoPauloMidnight(at).getTime());
    const fits = Math.max(1, Math.floor((until - t) / gap));
    const n = Math.min(left, budget, fits);
    t += n * gap;
    left -= n;
    budget -= n;
    if (left === 0) return { ...out, finishAt: new Date(t) };
    if (n === fits) t = Math.max(t, until);
  }
  return out;
}
