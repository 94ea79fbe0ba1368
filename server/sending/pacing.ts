/**
 * How fast a WhatsApp connection may send: pure functions of the account's settings, the clock and
 * a random source, so each rule is tested on its own (pacing.test.ts).
 */

import { startOfSaoPauloDay } from '../../contract/sao-paulo-time';
import { jitterMaxMs } from '../../contract/sending-time';

// The business-hours rules live in the contract, where the campaign dialog's forecast reads them
// too; the engine keeps importing them from here. The São Paulo clock is contract/sao-paulo-time.ts.
export {
  type BusinessHours,
  businessWindow,
  jitterMaxMs,
  meanGapMs,
} from '../../contract/sending-time';

const DAY_MS = 86_400_000;

/**
 * Daily caps of a newly connected personal number during its first week: a number that suddenly
 * sends hundreds of messages is what WhatsApp bans. Day 8 on, only the account's daily limit.
 */
export const WARMUP_DAILY_CAPS = [20, 36, 65, 117, 210, 378, 680] as const;
/** A number idle this long warms up again from the first day. */
export const WARMUP_RESTART_IDLE_MS = 72 * 3_600_000;

/** The wait before the next personal-number message: the configured delay plus random jitter. */
export function nextGapMs(delaySeconds: number, random: () => number = Math.random): number {
  return delaySeconds * 1000 + Math.floor(random() * jitterMaxMs(delaySeconds));
}

/** How long "typing…" shows before a message: grows with its length, between 0.8 and 5 s. */
export function typingMs(textLength: number): number {
  return Math.min(5000, Math.max(800, 600 + textLength * 35));
}

/** Wait before retry number `attempt` (1-based) of a transient failure: 30 s doubling, at most 15 min, ±20 %. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(15 * 60_000, 30_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

export interface WarmupState {
  warmupStartedAt: Date | null;
  lastSentAt: Date | null;
}

/** The warm-up's cap for today, or null once the number is past its first week. */
export function warmupCap(state: WarmupState, at: Date): number | null {
  const started = effectiveWarmupStart(state, at);
  const day = Math.floor((startOfSaoPauloDay(at).getTime() - startOfSaoPauloDay(started).getTime()) / DAY_MS);
  return day < WARMUP_DAILY_CAPS.length ? WARMUP_DAILY_CAPS[Math.max(0, day)] : null;
}

/** When the current warm-up began: now for a number that never sent or sat idle for 72 h. */
export function effectiveWarmupStart(state: WarmupState, at: Date): Date {
  if (!state.warmupStartedAt || !state.lastSentAt) return at;
  if (at.getTime() - state.lastSentAt.getTime() >= WARMUP_RESTART_IDLE_MS) return at;
  return state.warmupStartedAt;
}

/** Messages still allowed today: the account's limit, lowered by the warm-up on a personal number. */
export function remainingToday(opts: {
  dailyLimit: number;
  sentToday: number;
  warmup: WarmupState | null;
  at: Date;
}): number {
  const warm = opts.warmup ? warmupCap(opts.warmup, opts.at) : null;
  const cap = warm === null ? opts.dailyLimit : Math.min(opts.dailyLimit, warm);
  return Math.max(0, cap - opts.sentToday);
}
