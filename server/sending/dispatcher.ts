import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type CampaignWaitReason, campaignMsg } from '../../contract/campaigns';
import { notificationLinks, notificationMsg } from '../../contract/notifications';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { recordActivity } from '../lib/activity';
import { MicroBatch } from '../lib/micro-batch';
import { notify } from '../lib/notify';
import type { Driver, DriverProvider } from '../whatsapp/driver';
import { buildMessage, type CampaignContent, type ImageLoader, personalText } from './content';
import { classifyFailure, type FailureAction } from './failures';
import {
  type BusinessHours,
  backoffMs,
  businessWindow,
  nextGapMs,
  remainingToday,
  startOfSaoPauloDay,
  typingMs,
} from './pacing';

/** The account settings the dispatcher obeys (SPEC §3 WhatsApp settings). */
export interface SendingSettings extends BusinessHours {
  messageDelay: number;
  dailyLimit: number;
}

export interface DispatcherOptions {
  db: Db;
  drivers: DriverProvider;
  log: FastifyBaseLogger;
  settings: (userId: string) => Promise<SendingSettings>;
  /** Starts a scheduled campaign whose time has come (the same path as 'Enviar Campanha'). */
  startScheduled: (userId: string, campaignId: string) => Promise<void>;
  loadImage?: ImageLoader;
  /** How often due work is looked for. */
  tickMs?: number;
  /** Multiplies every pacing wait (gaps, typing, back-off): tests run the real rules faster. */
  timeScale?: number;
  /**
   * This process is the only one on the database (the embedded one): rows a previous run left
   * mid-send are reconciled at start-up without waiting for their lease to lapse.
   */
  exclusive?: boolean;
  /**
   * How long a lane stays with its process without renewal (another process takes it over after
   * this); a claimed row is held twice as long.
   */
  leaseMs?: number;
  /** Cloud API messages per second of one number (Meta's default 80, up to 1,000). */
  cloudThroughput?: number;
  /** Cloud API requests in flight at once for one number. */
  cloudConcurrency?: number;
  random?: () => number;
}

interface ClaimedRow extends CampaignContent {
  id: string;
  recipient: string;
  kind: 'contact' | 'group';
  name: string;
  email: string | null;
  attempts: number;
  providerMessageId: string | null;
  /** The contact behind the row, when its number was never checked on WhatsApp. */
  uncheckedContactId: string | null;
}

interface LaneState {
  nextSendAt: Date;
  warmupStartedAt: Date | null;
  lastSentAt: Date | null;
}

type Outcome =
  | { row: ClaimedRow; ok: true; providerMessageId: string }
  | { row: ClaimedRow; ok: false; failure: FailureAction };

/** A send that did not happen: its campaign was paused, cancelled or deleted after the claim (see handOver). */
type Stopped = { row: ClaimedRow; stopped: true };

interface HandOverItem {
  id: string;
  chooseIds: boolean;
}

/** A row handed over: its attempt counted and its message id, as now written. */
interface HandedOver {
  attempts: number;
  providerMessageId: string | null;
}

/** After this many attempts a transient failure fails the recipient. */
export const MAX_ATTEMPTS = 5;
/** A burst of failures pauses the campaign: this many of the last window… */
export const BURST_FAILURES = 20;
/** …of this many outcomes. */
export const BURST_WINDOW = 50;
/** How long a lane stays with its process without renewal; another process takes over after this. */
export const DEFAULT_LEASE_MS = 30_000;
/** How soon an offline number is looked at again. */
const OFFLINE_RECHECK_MS = 5_000;
/** How soon a lane waiting for business hours or a limit looks again, at the latest. */
const WAIT_RECHECK_MS = 60_000;
/** A personal-number lane claims its next row this long before the row's turn. */
const CLAIM_AHEAD_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The send loop. PostgreSQL is the queue: each campaign recipient row is a job. Every tick the
 * dispatcher starts scheduled campaigns that are due and runs one lane per account with work:
 * a lane holds a lease row (one process per WhatsApp connection at a time), claims due rows with
 * `FOR UPDATE SKIP LOCKED`, and sends them paced as the account's settings say: on a personal
 * number one at a time with the delay plus jitter, typing first, within the daily limit and its
 * warm-up and business hours; on the Cloud API at the number's throughput with many requests in
 * flight. Work that may not go out now waits (`in_progress`, with the reason) and resumes by
 * itself.
 *
 * A claim only reserves a row (it stays `queued`, leased to this process): each row becomes
 * `sending` right before its own send, in one statement that also reads its campaign's status
 * (handOver), so a pause or cancel that lands between the claim and the send stops that send.
 */
export class Dispatcher {
  readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly outcomes = new Map<string, boolean[]>();
  /** Accounts whose lane found nothing it may send, and when to look again (no query per tick for them). */
  private readonly snoozed = new Map<string, number>();
  private stopped = true;
  private ticking: Promise<void> | null = null;
  private readonly tickMs: number;
  private readonly scale: number;
  private readonly random: () => number;
  private readonly laneLeaseMs: number;
  private readonly rowLeaseMs: number;
  /** Rows this process claimed and has not handed over yet (released at stop). */
  private readonly held = new Set<string>();
  /** Hand-overs asked for while the last one was being written go together in the next statement. */
  private readonly handOvers = new MicroBatch<HandOverItem, HandedOver | null>((items) => this.handOverRows(items));

  constructor(private readonly opts: DispatcherOptions) {
    this.owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.tickMs = opts.tickMs ?? 1000;
    this.scale = opts.timeScale ?? 1;
    this.random = opts.random ?? Math.random;
    this.laneLeaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.rowLeaseMs = this.laneLeaseMs * 2;
  }

  private get db(): Db {
    return this.opts.db;
  }

  /** Reconciles what a previous run left mid-send, then ticks until stopped. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.reconcile(this.opts.exclusive ?? false);
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.lanes.values()]);
    if (this.held.size) {
      // Claimed, never sent: free for the next process at once rather than when the claim lapses.
      const ids = [...this.held];
      this.held.clear();
      await this.db
        .execute(sql`
          update campaign_recipients set claimed_by = null, lease_until = null
          where id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) and claimed_by = ${this.owner} and status = 'queued'`)
        .catch(() => undefined);
    }
    await this.db
      .execute(sql`update sending_lanes set lease_until = null where owner = ${this.owner}`)
      .catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick()
        .catch((err) => this.opts.log.error({ err }, 'campaign dispatcher tick failed'))
        .finally(() => {
          this.ticking = null;
          this.schedule();
        });
    }, this.tickMs);
    this.timer.unref();
  }

  /** One pass: hand back lapsed claims, start due scheduled campaigns, run a lane for each account with work. */
  async tick(): Promise<void> {
    await this.reconcile(false);
    const due = rowsOf<{ id: string; user_id: string }>(
      await this.db.execute(
        sql`select id, user_id from campaigns where status = 'scheduled' and scheduled_at <= now() order by scheduled_at limit 50`,
      ),
    );
    for (const c of due) {
      if (this.stopped) return;
      await this.opts.startScheduled(c.user_id, c.id).catch((err) => {
        this.opts.log.warn({ err, campaignId: c.id }, 'a scheduled campaign could not start');
      });
    }
    const accounts = rowsOf<{ user_id: string }>(
      await this.db.execute(sql`select distinct user_id from campaigns where status in ('sending', 'in_progress')`),
    );
    const now = Date.now();
    for (const { user_id: userId } of accounts) {
      if (this.stopped || this.lanes.has(userId)) continue;
      if ((this.snoozed.get(userId) ?? 0) > now) continue;
      this.snoozed.delete(userId);
      const lane = this.runLane(userId)
        .catch((err) => this.opts.log.error({ err, userId }, 'campaign lane failed'))
        .finally(() => this.lanes.delete(userId));
      this.lanes.set(userId, lane);
    }
  }

  /** Resolves when no lane of this process is running (tests). */
  async idle(): Promise<void> {
    await this.ticking;
    await Promise.allSettled([...this.lanes.values()]);
  }

  /**
   * Rows left `sending` by a process that stopped mid-send go back to the queue, keeping the
   * message id chosen for them: a receipt for that id moves the row on (so it is not sent again),
   * and a personal number resends under the same id. With `all`, every such row (the only process).
   */
  private async reconcile(all: boolean): Promise<void> {
    const result = await this.db.execute(sql`
      update campaign_recipients set status = 'queued', claimed_by = null, lease_until = null, updated_at = now()
      where status = 'sending' and ${all ? sql`true` : sql`lease_until < now()`}
      returning id
    `);
    const n = rowsOf(result).length;
    if (n) this.opts.log.warn({ count: n }, 'campaign recipients caught mid-send were queued again');
    // The only process: every lane's holder is gone.
    if (all) await this.db.execute(sql`update sending_lanes set lease_until = null`);
  }

  private async runLane(userId: string): Promise<void> {
    while (!this.stopped) {
      const lane = await this.acquire(userId);
      if (!lane) return;
      const driver = await this.opts.drivers.get(userId);
      if (!driver) return this.wait(userId, 'offline', OFFLINE_RECHECK_MS);
      const settings = await this.opts.settings(userId);
      const now = new Date();
      const window = businessWindow(settings, now);
      if (!window.open) {
        const opensIn = window.opensAt ? window.opensAt.getTime() - now.getTime() : WAIT_RECHECK_MS;
        return this.wait(userId, 'outside_hours', Math.min(opensIn, WAIT_RECHECK_MS));
      }
      const personal = driver.kind !== 'cloud';
      const sentToday = await this.sentSince(userId, startOfSaoPauloDay(now));
      const remaining = remainingToday({
        dailyLimit: settings.dailyLimit,
        sentToday,
        // A real personal number warms up; the simulator has no ban to avoid and the Cloud API its own limits.
        warmup:
          driver.kind === 'baileys' ? { warmupStartedAt: lane.warmupStartedAt, lastSentAt: lane.lastSentAt } : null,
        at: now,
      });
      if (remaining <= 0) return this.wait(userId, 'daily_limit', WAIT_RECHECK_MS);
      const conversations = personal ? Number.POSITIVE_INFINITY : await this.conversationsLeft(userId, driver);
      if (conversations <= 0) return this.wait(userId, 'messaging_limit', WAIT_RECHECK_MS);
      const more = personal
        ? await this.sendPersonal(userId, driver, settings, lane)
        : await this.sendCloud(userId, driver, Math.min(remaining, conversations));
      if (!more) {
        await this.finish(userId);
        await this.release(userId);
        return;
      }
    }
    await this.release(userId);
  }

  /** One message on a personal number: wait for its turn, type, send. False when nothing is due. */
  private async sendPersonal(
    userId: string,
    driver: Driver,
    settings: SendingSettings,
    lane: LaneState,
  ): Promise<boolean> {
    // Claim only shortly before the turn: a claimed row is held, and the gap may be a minute long.
    const claimAhead = CLAIM_AHEAD_MS * this.scale;
    const untilTurn = lane.nextSendAt.getTime() - Date.now();
    if (untilTurn > claimAhead && !(await this.sleepHoldingLane(userId, untilTurn - claimAhead))) return true;
    const [row] = await this.claim(userId, 1);
    if (!row) return false;
    await this.markSending(userId);
    if ((await this.checkBeforeSend(driver, row)) === 'absent') {
      // The check took this turn: the next one comes after a gap, as after a send.
      const gap = nextGapMs(settings.messageDelay, this.random) * this.scale;
      await this.db.execute(sql`
        update sending_lanes set next_send_at = now() + ${`${Math.round(gap)} milliseconds`}::interval
        where user_id = ${userId} and owner = ${this.owner}`);
      return true;
    }
    // "typing…" fills the end of the gap, so the gap between two messages stays what pacing chose.
    const text = personalText(row.message, row);
    const typeFor = typingMs(text.length) * this.scale;
    const left = lane.nextSendAt.getTime() - Date.now();
    if (left > typeFor) await sleep(left - typeFor);
    if (driver.typing) await driver.typing(row.recipient, true).catch(() => undefined);
    await sleep(left > 0 ? Math.min(left, typeFor) : typeFor);
    const outcome = await this.sendOne(userId, driver, row, false, driver.choosesMessageIds ?? false, text);
    if ('stopped' in outcome) {
      // Paused or cancelled while this turn waited: nothing went out, and the turn is still unused.
      if (driver.typing) await driver.typing(row.recipient, false).catch(() => undefined);
      return true;
    }
    const gap = nextGapMs(settings.messageDelay, this.random) * this.scale;
    await this.db.execute(sql`
      update sending_lanes set
        next_send_at = now() + ${`${Math.round(gap)} milliseconds`}::interval,
        warmup_started_at = case
          when warmup_started_at is null or last_sent_at is null or last_sent_at < now() - interval '72 hours' then now()
          else warmup_started_at end,
        last_sent_at = now()
      where user_id = ${userId} and owner = ${this.owner}
    `);
    await this.apply(userId, [outcome]);
    return true;
  }

  /**
   * On a real personal number, a contact never checked is looked up on WhatsApp right before its
   * send, in the send's own turn: checks are paced like sends, never in bulk (bulk lookups get
   * numbers banned). A number without WhatsApp is skipped with that reason and remembered on the
   * contact; a check that fails does not hold the send up.
   */
  private async checkBeforeSend(driver: Driver, row: ClaimedRow): Promise<'present' | 'absent' | 'unchecked'> {
    if (driver.kind !== 'baileys' || row.kind !== 'contact' || !row.uncheckedContactId) return 'unchecked';
    let exists: boolean;
    try {
      const [result] = await driver.checkNumbers([row.recipient]);
      if (!result) return 'unchecked';
      exists = result.exists;
    } catch (err) {
      this.opts.log.warn({ err }, 'a number check before a send failed; sending anyway');
      return 'unchecked';
    }
    await this.db.execute(sql`
      update contacts set is_whatsapp_active = ${exists}, whatsapp_checked_at = now() where id = ${row.uncheckedContactId}`);
    if (exists) return 'present';
    await this.db.execute(sql`
      update campaign_recipients set status = 'skipped', error = ${campaignMsg.reason.noWhatsapp},
        claimed_by = null, lease_until = null, updated_at = now()
      where id = ${row.id} and status = 'queued' and claimed_by = ${this.owner}`);
    this.held.delete(row.id);
    return 'absent';
  }

  /**
   * Cloud API: the number's throughput with many requests in flight (each Graph call takes
   * 100–300 ms). Rows are claimed half a second's worth at a time, the next batch while the last
   * one is still in flight; results are written in batches. False when nothing was due.
   */
  private async sendCloud(userId: string, driver: Driver, remaining: number): Promise<boolean> {
    const rate = Math.min(1000, Math.max(1, this.opts.cloudThroughput ?? 80));
    const concurrency = Math.max(1, this.opts.cloudConcurrency ?? 64);
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
      if (batch.length) await this.apply(userId, batch);
      lastFlush = Date.now();
    };
    while (!this.stopped && budget > 0) {
      const rows = await this.claim(userId, Math.min(budget, Math.max(5, Math.ceil(rate / 2))));
      if (!rows.length) break;
      if (!sentAny) await this.markSending(userId);
      sentAny = true;
      budget -= rows.length;
      for (const row of rows) {
        while (inFlight.size >= concurrency) await Promise.race(inFlight);
        // A token bucket: on average `rate` a second, with up to a quarter second's worth of credit
        // so the pauses of claiming the next batch do not lower the rate.
        const wait = nextStart - Date.now();
        if (wait > 0) await sleep(wait);
        nextStart = Math.max(nextStart, Date.now() - burstMs) + interval;
        const p: Promise<void> = this.sendOne(userId, driver, row, true, false).then((o) => {
          results.push(o);
          inFlight.delete(p);
        });
        inFlight.add(p);
        if (Date.now() - lastFlush > 250) await flush();
      }
      if (!(await this.renew(userId))) break;
    }
    await Promise.all(inFlight);
    await flush();
    await this.db.execute(
      sql`update sending_lanes set last_sent_at = now() where user_id = ${userId} and owner = ${this.owner}`,
    );
    return sentAny && budget > 0;
  }

  /**
   * Builds the message, hands the row over (the last word of its campaign's status), then sends.
   * Whatever is built before the hand-over (an image download may take a while) is done before it,
   * so nothing but the driver's own call separates it from the send.
   */
  private async sendOne(
    userId: string,
    driver: Driver,
    row: ClaimedRow,
    cloud: boolean,
    chooseIds: boolean,
    text?: string,
  ): Promise<Outcome | Stopped> {
    let message: Awaited<ReturnType<typeof buildMessage>>;
    try {
      message = await buildMessage(row, row, { userId, cloud, loadImage: this.opts.loadImage, text });
    } catch (err) {
      // Not sent, and never to be: a row that is no longer ours or whose campaign stopped is left as it is.
      if (!(await this.handOver(row, chooseIds))) return { row, stopped: true };
      return { row, ok: false, failure: classifyFailure(err) };
    }
    if (!(await this.handOver(row, chooseIds))) return { row, stopped: true };
    try {
      const { providerMessageId } = await driver.send(
        row.recipient,
        message,
        row.providerMessageId ? { messageId: row.providerMessageId } : undefined,
      );
      return { row, ok: true, providerMessageId };
    } catch (err) {
      return { row, ok: false, failure: classifyFailure(err) };
    }
  }

  /**
   * The moment a claimed row is given to the network: the row becomes `sending` (its attempt
   * counted, its message id chosen where the driver takes one) only if it is still queued, still
   * claimed by this process and its campaign is still sending; the check and the mark are one
   * statement. Otherwise the claim is let go and the row left as the pause (`queued`), the cancel
   * (`skipped`) or another process made it; a deleted campaign's row is gone. A pause or cancel
   * committed before that statement stops the send; one committed after it finds the row
   * `sending`, and the message, already handed to the driver, counts as sent. When the statement
   * cannot be written the row is not sent (its claim lapses and it is sent later).
   */
  private async handOver(row: ClaimedRow, chooseIds: boolean): Promise<boolean> {
    this.held.delete(row.id);
    let handed: HandedOver | null;
    try {
      handed = await this.handOvers.add({ id: row.id, chooseIds });
    } catch (err) {
      this.held.add(row.id);
      this.opts.log.warn({ err }, 'a campaign recipient could not be handed over; it will be sent later');
      return false;
    }
    if (!handed) return false;
    row.attempts = handed.attempts;
    row.providerMessageId = handed.providerMessageId;
    return true;
  }

  /**
   * The statement behind handOver, for every row asked for while the last one ran (on the Cloud API
   * many sends start each second; a personal number has one at a time): an update by primary key,
   * each row joined to its campaign by primary key.
   */
  private async handOverRows(items: HandOverItem[]): Promise<Array<HandedOver | null>> {
    const go = sql`(r.status = 'queued' and c.status in ('sending', 'in_progress'))`;
    const values = sql.join(
      items.map((i) => sql`(${i.id}::uuid, ${i.chooseIds}::boolean)`),
      sql`, `,
    );
    const rows = rowsOf<{ id: string; status: string; attempts: number; provider_message_id: string | null }>(
      await this.db.execute(sql`
        update campaign_recipients r set
          status = case when ${go} then 'sending' else r.status end,
          attempts = case when ${go} then r.attempts + 1 else r.attempts end,
          provider_message_id = case when ${go} and v.choose
            then coalesce(r.provider_message_id, '3EB0' || upper(substr(md5(random()::text || r.id::text), 1, 18)))
            else r.provider_message_id end,
          claimed_by = case when ${go} then r.claimed_by end,
          lease_until = case when ${go} then now() + ${`${this.rowLeaseMs} milliseconds`}::interval end,
          updated_at = case when ${go} then now() else r.updated_at end
        from (values ${values}) as v(id, choose), campaigns c
        where r.id = v.id and r.claimed_by = ${this.owner} and c.id = r.campaign_id
        returning r.id, r.status, r.attempts, r.provider_message_id
      `),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return items.map((i) => {
      const r = byId.get(i.id);
      if (r?.status !== 'sending') return null;
      return { attempts: Number(r.attempts), providerMessageId: r.provider_message_id ?? null };
    });
  }

  /** Writes what happened to each send; pauses a campaign on a failure that calls for it or on a burst of failures. */
  private async apply(userId: string, done: Array<Outcome | Stopped>): Promise<void> {
    const outcomes = done.filter((o): o is Outcome => !('stopped' in o));
    if (!outcomes.length) return;
    const sent = outcomes.filter((o): o is Extract<Outcome, { ok: true }> => o.ok);
    if (sent.length) {
      const values = sql.join(
        sent.map((o) => sql`(${o.row.id}::uuid, ${o.providerMessageId})`),
        sql`, `,
      );
      await this.db.execute(sql`
        update campaign_recipients r set
          status = case when r.status in ('queued', 'sending') then 'sent' else r.status end,
          sent_at = coalesce(r.sent_at, now()),
          provider_message_id = v.pid,
          claimed_by = null, lease_until = null, error = null, updated_at = now()
        from (values ${values}) as v(id, pid)
        where r.id = v.id
      `);
    }
    for (const o of outcomes) {
      this.remember(o.row.campaignId, o.ok || o.failure.action === 'defer');
      if (!o.ok) await this.applyFailure(userId, o.row, o.failure);
    }
    const burst = new Set<string>();
    for (const o of outcomes) {
      const window = this.outcomes.get(o.row.campaignId) ?? [];
      if (window.filter((ok) => !ok).length >= BURST_FAILURES) burst.add(o.row.campaignId);
    }
    for (const campaignId of burst) {
      this.outcomes.delete(campaignId);
      await this.pause(campaignId, campaignMsg.pauseReason.burst(BURST_FAILURES, BURST_WINDOW));
    }
  }

  private remember(campaignId: string, ok: boolean): void {
    const window = this.outcomes.get(campaignId) ?? [];
    window.push(ok);
    if (window.length > BURST_WINDOW) window.splice(0, window.length - BURST_WINDOW);
    this.outcomes.set(campaignId, window);
  }

  private async applyFailure(userId: string, row: ClaimedRow, f: FailureAction): Promise<void> {
    const requeue = (dueInMs: number, countAttempt: boolean): SQL => sql`
      update campaign_recipients set status = 'queued', claimed_by = null, lease_until = null,
        attempts = ${countAttempt ? sql`attempts` : sql`greatest(attempts - 1, 0)`},
        due_at = now() + ${`${Math.round(dueInMs)} milliseconds`}::interval,
        error = ${f.reason}, updated_at = now()
      where id = ${row.id} and status = 'sending'
    `;
    const fail = (reason: string): SQL => sql`
      update campaign_recipients set status = 'failed', claimed_by = null, lease_until = null,
        failed_at = now(), error = ${reason}, updated_at = now()
      where id = ${row.id} and status = 'sending'
    `;
    switch (f.action) {
      case 'retry': {
        if (row.attempts >= MAX_ATTEMPTS) {
          await this.db.execute(fail(`${campaignMsg.reason.tooManyAttempts} ${f.reason}`));
          return;
        }
        const wait = Math.max(f.retryAfterMs ?? 0, backoffMs(row.attempts, this.random)) * this.scale;
        await this.db.execute(requeue(wait, true));
        return;
      }
      case 'fail':
        await this.db.execute(fail(f.reason));
        return;
      case 'defer':
        await this.db.execute(requeue(f.delayMs, false));
        return;
      case 'pause':
        await this.db.execute(requeue(0, false));
        await this.pause(row.campaignId, f.reason);
        return;
      case 'offline':
        await this.db.execute(requeue(0, false));
        await this.setWaiting(userId, 'offline');
        return;
    }
  }

  private async pause(campaignId: string, reason: string): Promise<void> {
    const [paused] = rowsOf<{ user_id: string; name: string }>(
      await this.db.execute(sql`
        update campaigns set status = 'paused', pause_reason = ${reason}, waiting_reason = null, updated_at = now()
        where id = ${campaignId} and status in ('sending', 'in_progress')
        returning user_id, name
      `),
    );
    this.opts.log.warn({ campaignId, reason }, 'campaign paused by the dispatcher');
    if (!paused) return;
    const { log } = this.opts;
    await recordActivity(this.db, log, {
      userId: paused.user_id,
      actorId: null,
      kind: 'campaign_paused',
      detail: `${paused.name}: ${reason}`,
    });
    await notify(this.db, log, paused.user_id, {
      kind: 'campaign_paused',
      title: notificationMsg.campaignPaused.title,
      body: notificationMsg.campaignPaused.body(paused.name, reason),
      link: notificationLinks.campaign(campaignId),
    });
  }

  /**
   * Reserves the next due rows: they stay `queued` (a pause leaves them there, a cancel skips them)
   * and are leased to this process; each becomes `sending` only when handed over (handOver). A
   * row another process claimed is passed over until its claim lapses; on the embedded database,
   * where this process is the only one, so is only a claim of its own (what a previous run held is
   * free at once).
   */
  private async claim(userId: string, n: number): Promise<ClaimedRow[]> {
    const free = this.opts.exclusive
      ? sql`(r2.claimed_by is distinct from ${this.owner} or r2.lease_until < now())`
      : sql`(r2.lease_until is null or r2.lease_until < now())`;
    const rows = rowsOf<Record<string, unknown>>(
      await this.db.execute(sql`
        update campaign_recipients r set
          claimed_by = ${this.owner}, lease_until = now() + ${`${this.rowLeaseMs} milliseconds`}::interval
        from campaigns c
        where c.id = r.campaign_id and r.id in (
          select r2.id from campaign_recipients r2 join campaigns c2 on c2.id = r2.campaign_id
          where r2.user_id = ${userId} and r2.status = 'queued' and r2.due_at <= now() and ${free}
            and c2.status in ('sending', 'in_progress')
          order by r2.due_at
          limit ${n}
          for update of r2 skip locked
        )
        returning r.id, r.campaign_id, r.recipient, r.kind, r.name, r.email, r.attempts, r.provider_message_id,
          (select ct.id from contacts ct where ct.id = r.contact_id and ct.is_whatsapp_active is null) as unchecked_contact_id,
          c.message, c.image_url, c.template_name, c.template_language, c.template_variables
      `),
    );
    for (const r of rows) this.held.add(r.id as string);
    return rows.map((r) => ({
      id: r.id as string,
      campaignId: r.campaign_id as string,
      recipient: r.recipient as string,
      kind: r.kind as ClaimedRow['kind'],
      name: r.name as string,
      email: (r.email as string | null) ?? null,
      attempts: Number(r.attempts),
      providerMessageId: (r.provider_message_id as string | null) ?? null,
      uncheckedContactId: (r.unchecked_contact_id as string | null) ?? null,
      message: r.message as string,
      imageUrl: (r.image_url as string | null) ?? null,
      templateName: (r.template_name as string | null) ?? null,
      templateLanguage: (r.template_language as string | null) ?? null,
      templateVariables: (typeof r.template_variables === 'string'
        ? JSON.parse(r.template_variables)
        : (r.template_variables ?? [])) as CampaignContent['templateVariables'],
    }));
  }

  /**
   * Cloud API: how many more people may get a message under Meta's messaging limit, counting the
   * distinct contacts this account sent campaign messages to in the last 24 hours (unlimited when
   * the limit cannot be read).
   */
  private async conversationsLeft(userId: string, driver: Driver): Promise<number> {
    const limit = driver.messagingLimit ? await driver.messagingLimit() : null;
    if (limit === null || limit === 'unlimited') return Number.POSITIVE_INFINITY;
    const [r] = rowsOf<{ n: number }>(
      await this.db.execute(sql`
        select count(distinct recipient)::int as n from campaign_recipients
        where user_id = ${userId} and kind = 'contact' and sent_at > now() - interval '24 hours'
      `),
    );
    return limit - r.n;
  }

  private async sentSince(userId: string, since: Date): Promise<number> {
    const [r] = rowsOf<{ n: number }>(
      await this.db.execute(
        sql`select count(*)::int as n from campaign_recipients where user_id = ${userId} and sent_at >= ${since.toISOString()}::timestamptz`,
      ),
    );
    return r.n;
  }

  /** Campaigns waiting for this account go back to `sending` once a message goes out. */
  private async markSending(userId: string): Promise<void> {
    await this.db.execute(sql`
      update campaigns set status = 'sending', waiting_reason = null, updated_at = now()
      where user_id = ${userId} and status = 'in_progress'
    `);
  }

  private async setWaiting(userId: string, reason: CampaignWaitReason): Promise<void> {
    await this.db.execute(sql`
      update campaigns set status = 'in_progress', waiting_reason = ${reason}, updated_at = now()
      where user_id = ${userId} and status in ('sending', 'in_progress') and waiting_reason is distinct from ${reason}
    `);
  }

  /**
   * Marks the account's campaigns as waiting and lets the lane go; this process looks again after
   * `recheckMs` (a setting changed meanwhile takes effect by then).
   */
  private async wait(userId: string, reason: CampaignWaitReason, recheckMs: number): Promise<void> {
    await this.setWaiting(userId, reason);
    await this.release(userId);
    this.snoozed.set(userId, Date.now() + Math.max(this.tickMs, recheckMs * this.scale));
  }

  /** Campaigns with nothing left to send end: completed, or failed when every send failed. */
  private async finish(userId: string): Promise<void> {
    const ended = rowsOf<{ id: string; status: string; name: string; sent: number; failed: number }>(
      await this.db.execute(sql`
        update campaigns c set
          status = case
            when exists (select 1 from campaign_recipients r where r.campaign_id = c.id and r.status in ('sent', 'delivered', 'read'))
              or not exists (select 1 from campaign_recipients r where r.campaign_id = c.id and r.status = 'failed')
            then 'completed' else 'failed' end,
          finished_at = now(), waiting_reason = null, updated_at = now()
        where c.user_id = ${userId} and c.status in ('sending', 'in_progress')
          and not exists (select 1 from campaign_recipients r where r.campaign_id = c.id and r.status in ('queued', 'sending'))
        returning c.id, c.status, c.name,
          (select count(*)::int from campaign_recipients r where r.campaign_id = c.id and r.status in ('sent', 'delivered', 'read')) as sent,
          (select count(*)::int from campaign_recipients r where r.campaign_id = c.id and r.status = 'failed') as failed
      `),
    );
    for (const c of ended) {
      this.outcomes.delete(c.id);
      this.opts.log.info({ campaignId: c.id, status: c.status }, 'campaign finished');
      const completed = c.status === 'completed';
      const { log } = this.opts;
      await recordActivity(this.db, log, {
        userId,
        actorId: null,
        kind: completed ? 'campaign_finished' : 'campaign_failed',
        detail: c.name,
      });
      await notify(this.db, log, userId, {
        kind: completed ? 'campaign_completed' : 'campaign_failed',
        title: completed ? notificationMsg.campaignCompleted.title : notificationMsg.campaignFailed.title,
        body: completed
          ? notificationMsg.campaignCompleted.body(c.name, Number(c.sent), Number(c.failed))
          : notificationMsg.campaignFailed.body(c.name, Number(c.failed)),
        link: notificationLinks.campaign(c.id),
      });
    }
  }

  private async acquire(userId: string): Promise<LaneState | null> {
    const [row] = rowsOf<{
      next_send_at: string | Date;
      warmup_started_at: string | Date | null;
      last_sent_at: string | Date | null;
    }>(
      await this.db.execute(sql`
        insert into sending_lanes (user_id, owner, lease_until)
        values (${userId}, ${this.owner}, now() + ${`${this.laneLeaseMs} milliseconds`}::interval)
        on conflict (user_id) do update set owner = excluded.owner, lease_until = excluded.lease_until
        where sending_lanes.owner = excluded.owner or sending_lanes.lease_until is null or sending_lanes.lease_until < now()
        returning next_send_at, warmup_started_at, last_sent_at
      `),
    );
    if (!row) return null;
    const date = (v: string | Date | null) => (v === null ? null : new Date(v));
    return {
      nextSendAt: new Date(row.next_send_at),
      warmupStartedAt: date(row.warmup_started_at),
      lastSentAt: date(row.last_sent_at),
    };
  }

  private async renew(userId: string): Promise<boolean> {
    const result = await this.db.execute(sql`
      update sending_lanes set lease_until = now() + ${`${this.laneLeaseMs} milliseconds`}::interval
      where user_id = ${userId} and owner = ${this.owner}
      returning user_id
    `);
    return rowsOf(result).length > 0;
  }

  private async release(userId: string): Promise<void> {
    await this.db.execute(
      sql`update sending_lanes set lease_until = null where user_id = ${userId} and owner = ${this.owner}`,
    );
  }

  /** Sleeps in short steps, renewing the lane's lease; false when stopped or the lease was lost. */
  private async sleepHoldingLane(userId: string, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (!this.stopped) {
      const left = end - Date.now();
      if (left <= 0) return true;
      await sleep(Math.min(left, this.laneLeaseMs / 3, 1000));
      if (!(await this.renew(userId))) return false;
    }
    return false;
  }
}
