import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { FileOpener } from '../whatsapp/account-file';
import type { Driver } from '../whatsapp/driver';
import type { ImageLoader } from '../whatsapp/uploaded-image';
import { markGoingOn } from './campaign-lifecycle';
import type { ClaimedRow, LaneScope, RowClaims } from './claim';
import { buildMessages, personalText } from './content';
import { classifyFailure } from './failures';
import { type LaneState, type Lanes, sleep } from './lanes';
import type { Outcome, Outcomes, Stopped } from './outcomes';
import { type BusinessHours, nextGapMs, typingMs } from './pacing';

/**
 * The two ways a lane sends: a personal number one message at a time, paced like a person (the
 * delay plus jitter, typing first, a check of a never-checked number in the send's own turn), and
 * the Cloud API at the number's throughput with many requests in flight.
 */

/** The account settings the dispatcher obeys (SPEC §3 WhatsApp settings). */
export interface SendingSettings extends BusinessHours {
  messageDelay: number;
  dailyLimit: number;
}

/** What a send strategy works with: the dispatcher's parts. */
export interface SendContext {
  db: Db;
  log: FastifyBaseLogger;
  lanes: Lanes;
  claims: RowClaims;
  outcomes: Outcomes;
  /** Multiplies every pacing wait (gaps, typing, back-off). */
  scale: number;
  random: () => number;
  /** True once the dispatcher is stopping. */
  stopped: () => boolean;
  /**
   * True when a number's lane should be handed on at its next step: its settings changed (the
   * lane reads them again), it stopped taking recipients, or another process owns it now.
   */
  yields: (connectionId: string) => boolean;
  loadImage?: ImageLoader;
  /** Reads one of the account's files where it is sent (a campaign's `mediaUrl`). */
  openFile?: FileOpener;
  /** Cloud API messages per second of one number. */
  cloudThroughput?: number;
  /** Cloud API requests in flight at once for one number. */
  cloudConcurrency?: number;
}

/** A personal-number lane claims its next row this long before the row's turn. */
const CLAIM_AHEAD_MS = 10_000;

/** One message on a personal number: wait for its turn, type, send. False when nothing is due. */
export async function sendPersonal(
  ctx: SendContext,
  lane: LaneScope,
  driver: Driver,
  settings: SendingSettings,
  state: LaneState,
): Promise<boolean> {
  const { connectionId } = lane;
  // Claim only shortly before the turn: a claimed row is held, and the gap may be a minute long.
  const claimAhead = CLAIM_AHEAD_MS * ctx.scale;
  const untilTurn = state.nextSendAt.getTime() - Date.now();
  const handOn = () => ctx.stopped() || ctx.yields(connectionId);
  if (untilTurn > claimAhead && !(await ctx.lanes.sleepHolding(connectionId, untilTurn - claimAhead, handOn))) {
    return true;
  }
  const [row] = await ctx.claims.claim(lane, 1);
  if (!row) return false;
  await markGoingOn(ctx.db, lane);
  if ((await checkBeforeSend(ctx, driver, row)) === 'absent') {
    // The check took this turn: the next one comes after a gap, as after a send.
    await ctx.lanes.nextTurnIn(connectionId, nextGapMs(settings.messageDelay, ctx.random) * ctx.scale);
    return true;
  }
  // "typing…" fills the end of the gap, so the gap between two messages stays what pacing chose.
  const text = personalText(row.message, row);
  const typeFor = typingMs(text.length) * ctx.scale;
  const left = state.nextSendAt.getTime() - Date.now();
  if (left > typeFor) await sleep(left - typeFor);
  if (driver.typing) await driver.typing(row.recipient, true).catch(() => undefined);
  await sleep(left > 0 ? Math.min(left, typeFor) : typeFor);
  const outcome = await sendOne(ctx, lane.userId, driver, row, false, driver.choosesMessageIds ?? false, text);
  if ('stopped' in outcome) {
    // Paused or cancelled while this turn waited: nothing went out, and the turn is still unused.
    if (driver.typing) await driver.typing(row.recipient, false).catch(() => undefined);
    return true;
  }
  await ctx.lanes.sentPersonal(connectionId, nextGapMs(settings.messageDelay, ctx.random) * ctx.scale);
  await ctx.outcomes.apply(lane, [outcome]);
  return true;
}

/**
 * On a real personal number, a contact never checked is looked up on WhatsApp right before its
 * send, in the send's own turn: checks are paced like sends, never in bulk (bulk lookups get
 * numbers banned). A number without WhatsApp is skipped with that reason and remembered on the
 * contact; a check that fails does not hold the send up.
 */
async function checkBeforeSend(
  ctx: SendContext,
  driver: Driver,
  row: ClaimedRow,
): Promise<'present' | 'absent' | 'unchecked'> {
  if (driver.kind !== 'baileys' || row.kind !== 'contact' || !row.uncheckedContactId) return 'unchecked';
  let exists: boolean;
  try {
    const [result] = await driver.checkNumbers([row.recipient]);
    if (!result) return 'unchecked';
    exists = result.exists;
  } catch (err) {
    ctx.log.warn({ err }, 'a number check before a send failed; sending anyway');
    return 'unchecked';
  }
  await ctx.db.execute(sql`
    update contacts set is_whatsapp_active = ${exists}, whatsapp_checked_at = now() where id = ${row.uncheckedContactId}`);
  if (exists) return 'present';
  await ctx.claims.skipWithoutWhatsapp(row);
  return 'absent';
}

/**
 * Cloud API: the number's throughput with many requests in flight (each Graph call takes
 * 100–300 ms). Rows are claimed half a second's worth at a time, the next batch while the last
 * one is still in flight; results are written in batches. False when nothing was due.
 */
export async function sendCloud(
  ctx: SendContext,
  lane: LaneScope,
  driver: Driver,
  remaining: number,
): Promise<boolean> {
  const { connectionId, userId } = lane;
  const rate = Math.min(1000, Math.max(1, ctx.cloudThroughput ?? 80));
  const concurrency = Math.max(1, ctx.cloudConcurrency ?? 64);
  const interval = 1000 / rate;
  const burstMs = 250;
  const inFlight = new Set<Promise<void>>();
  let results: Array<Outcome | Stopped> = [];
  let budget = remaining;
  let nextStart = Date.now();
  let lastFlush = Date.now();
  let sentAny = false;
  const flush = async () => {
    const batch = results;
    results = [];
    if (batch.length) await ctx.outcomes.apply(lane, batch);
    lastFlush = Date.now();
  };
  let handedOn = false;
  while (!ctx.stopped() && budget > 0) {
    if (ctx.yields(connectionId)) {
      handedOn = true;
      break;
    }
    const rows = await ctx.claims.claim(lane, Math.min(budget, Math.max(5, Math.ceil(rate / 2))));
    if (!rows.length) break;
    if (!sentAny) await markGoingOn(ctx.db, lane);
    sentAny = true;
    budget -= rows.length;
    for (const row of rows) {
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      // The number stopped (a restriction answered mid-burst): its other rows go to the campaign's other numbers.
      if (ctx.yields(connectionId)) {
        handedOn = true;
        break;
      }
      // A token bucket: on average `rate` a second, with up to a quarter second's worth of credit
      // so the pauses of claiming the next batch do not lower the rate.
      const wait = nextStart - Date.now();
      if (wait > 0) await sleep(wait);
      nextStart = Math.max(nextStart, Date.now() - burstMs) + interval;
      const p: Promise<void> = sendOne(ctx, userId, driver, row, true, false).then((o) => {
        results.push(o);
        inFlight.delete(p);
      });
      inFlight.add(p);
      if (Date.now() - lastFlush > 250) await flush();
    }
    if (handedOn || !(await ctx.lanes.renew(connectionId))) break;
  }
  await Promise.all(inFlight);
  await flush();
  await ctx.lanes.sentCloud(connectionId);
  // Handed on: the lane goes round again (new settings) or to its new owner.
  return handedOn || (sentAny && budget > 0);
}

/**
 * Builds the message, hands the row over (the last word of its campaign's status), then sends.
 * Whatever is built before the hand-over (an image download may take a while) is done before it,
 * so nothing but the driver's own call separates it from the send.
 */
async function sendOne(
  ctx: SendContext,
  userId: string,
  driver: Driver,
  row: ClaimedRow,
  cloud: boolean,
  chooseIds: boolean,
  text?: string,
): Promise<Outcome | Stopped> {
  let messages: Awaited<ReturnType<typeof buildMessages>>;
  try {
    messages = await buildMessages(row, row, {
      userId,
      cloud,
      loadImage: ctx.loadImage,
      openFile: ctx.openFile,
      text,
      byReference: driver.readsUploads,
    });
  } catch (err) {
    // Not sent, and never to be: a row that is no longer ours or whose campaign stopped is left as it is.
    if (!(await ctx.claims.handOver(row, chooseIds))) return { row, stopped: true };
    return { row, ok: false, failure: classifyFailure(err) };
  }
  if (!(await ctx.claims.handOver(row, chooseIds))) return { row, stopped: true };
  const [first, ...rest] = messages;
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await driver.send(
      row.recipient,
      first,
      row.providerMessageId ? { messageId: row.providerMessageId } : undefined,
    ));
  } catch (err) {
    return { row, ok: false, failure: classifyFailure(err) };
  }
  // The location, the contact card, an audio's text: right after, through the same number. The
  // recipient has the message already, so it counts as sent (its receipts are the first message's)
  // even if one of these fails: sending it all again would repeat what arrived.
  for (const [i, message] of rest.entries()) {
    try {
      // Ids of their own, derived from the first's: sent again after a crash, they are the same messages.
      const chosen = row.providerMessageId ? { messageId: followUpMessageId(row.providerMessageId, i + 1) } : undefined;
      await driver.send(row.recipient, message, chosen);
    } catch (err) {
      ctx.log.warn({ err, campaignId: row.campaignId, kind: message.kind }, 'campaign follow-up message not sent');
    }
  }
  return { row, ok: true, providerMessageId };
}

/**
 * The id of the `n`th message sent after a recipient's first one (whose id was chosen before it was
 * sent): in the first one's form (`3EB0` and 18 hex digits), the same every time for the same pair.
 */
export function followUpMessageId(firstId: string, n: number): string {
  return `3EB0${createHash('sha256').update(`${firstId}:${n}`).digest('hex').slice(0, 18).toUpperCase()}`;
}
