import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CAMPAIGN_RUNNING, type CampaignWaitReason } from '../../contract/campaigns';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Driver, DriverProvider } from '../whatsapp/driver';
import { dueScheduledCampaigns, finishCampaigns, markWaiting, statusIn } from './campaign-lifecycle';
import { RowClaims } from './claim';
import type { ImageLoader } from './content';
import { DEFAULT_LEASE_MS, Lanes } from './lanes';
import { Outcomes } from './outcomes';
import { businessWindow, remainingToday, startOfSaoPauloDay } from './pacing';
import { type SendContext, type SendingSettings, sendCloud, sendPersonal } from './send-strategies';

// The dispatcher's parts: lanes and their leases (lanes.ts), claims on recipient rows (claim.ts),
// the two ways of sending (send-strategies.ts), what each send came to (outcomes.ts); every change
// of a campaign's status goes through campaign-lifecycle.ts.
export { DEFAULT_LEASE_MS } from './lanes';
export { BURST_FAILURES, BURST_WINDOW, MAX_ATTEMPTS } from './outcomes';
export type { SendingSettings } from './send-strategies';

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
  /**
   * The processes sharing the database (server/cluster/process-registry.ts): this process's id
   * names its leases, and it runs only the lanes it owns; without one it is alone and owns all.
   */
  cluster?: {
    id: string;
    owns: (key: string) => boolean;
    /** SQL for "the processes still beating", to free what dead ones held. */
    liveIds: () => SQL;
  };
}

/** How soon an offline number is looked at again. */
const OFFLINE_RECHECK_MS = 5_000;
/** How soon a lane waiting for business hours or a limit looks again, at the latest. */
const WAIT_RECHECK_MS = 60_000;

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
  /** Accounts whose lane found nothing it may send, and when to look again (no query per tick for them). */
  private readonly snoozed = new Map<string, number>();
  private stopped = true;
  private ticking: Promise<void> | null = null;
  private readonly tickMs: number;
  private readonly scale: number;
  private readonly leases: Lanes;
  private readonly claims: RowClaims;
  private readonly outcomes: Outcomes;
  private readonly send: SendContext;
  /** Running lanes to hand on at their next step: their settings changed, or their owner did. */
  private readonly restless = new Set<string>();

  constructor(private readonly opts: DispatcherOptions) {
    this.owner = opts.cluster?.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.tickMs = opts.tickMs ?? 1000;
    this.scale = opts.timeScale ?? 1;
    const random = opts.random ?? Math.random;
    const laneLeaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    const { db, log } = opts;
    this.leases = new Lanes(db, this.owner, laneLeaseMs);
    // A claimed row is held twice as long as a lane.
    this.claims = new RowClaims({
      db,
      log,
      owner: this.owner,
      leaseMs: laneLeaseMs * 2,
      exclusive: opts.exclusive ?? false,
    });
    this.outcomes = new Outcomes({ db, log, scale: this.scale, random });
    this.send = {
      db,
      log,
      lanes: this.leases,
      claims: this.claims,
      outcomes: this.outcomes,
      scale: this.scale,
      random,
      stopped: () => this.stopped,
      yields: (userId) => this.restless.has(userId) || !this.owns(userId),
      loadImage: opts.loadImage,
      cloudThroughput: opts.cloudThroughput,
      cloudConcurrency: opts.cloudConcurrency,
    };
  }

  private get db(): Db {
    return this.opts.db;
  }

  private owns(userId: string): boolean {
    return this.opts.cluster ? this.opts.cluster.owns(userId) : true;
  }

  /**
   * The account's sending settings changed (here or in another process): a waiting lane looks
   * again at once, a running one takes the new settings before its next message.
   */
  settingsChanged(userId: string): void {
    this.snoozed.delete(userId);
    if (this.lanes.has(userId)) this.restless.add(userId);
  }

  /**
   * The live processes changed: lanes and claimed rows of processes that stopped beating are freed
   * at once (their rows mid-send go back to the queue), and each lane goes to its new owner.
   */
  async membershipChanged(): Promise<void> {
    if (this.stopped) return;
    this.snoozed.clear();
    const live = this.opts.cluster?.liveIds();
    if (!live) return;
    const lanes = await this.leases.freeDead(live);
    const rows = await this.claims.freeDead(live);
    if (lanes || rows) this.opts.log.warn({ lanes, rows }, 'took over the lanes and claimed rows of a stopped process');
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
    await this.claims.releaseHeld();
    await this.leases.releaseAll().catch(() => undefined);
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
    const due = await dueScheduledCampaigns(this.db, 50);
    for (const c of due) {
      if (this.stopped) return;
      await this.opts.startScheduled(c.user_id, c.id).catch((err) => {
        this.opts.log.warn({ err, campaignId: c.id }, 'a scheduled campaign could not start');
      });
    }
    const accounts = rowsOf<{ user_id: string }>(
      await this.db.execute(sql`select distinct user_id from campaigns where status ${statusIn(CAMPAIGN_RUNNING)}`),
    );
    const now = Date.now();
    for (const { user_id: userId } of accounts) {
      if (this.stopped || this.lanes.has(userId) || !this.owns(userId)) continue;
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
   * Rows left `sending` by a process that stopped mid-send go back to the queue (RowClaims.reconcile).
   * With `all`, every such row and every lane (the only process).
   */
  private async reconcile(all: boolean): Promise<void> {
    const n = await this.claims.reconcile(all);
    if (n) this.opts.log.warn({ count: n }, 'campaign recipients caught mid-send were queued again');
    if (all) await this.leases.freeEveryLane();
  }

  private async runLane(userId: string): Promise<void> {
    while (!this.stopped) {
      this.restless.delete(userId);
      // Another process owns this account's lane now (it joined, or this one is draining): hand it on.
      if (!this.owns(userId)) break;
      const lane = await this.leases.acquire(userId);
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
        ? await sendPersonal(this.send, userId, driver, settings, lane)
        : await sendCloud(this.send, userId, driver, Math.min(remaining, conversations));
      if (!more) {
        for (const id of await finishCampaigns(this.opts, userId)) this.outcomes.forget(id);
        await this.leases.release(userId);
        return;
      }
    }
    await this.leases.release(userId);
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

  /**
   * Marks the account's campaigns as waiting and lets the lane go; this process looks again after
   * `recheckMs` (a setting changed meanwhile takes effect by then).
   */
  private async wait(userId: string, reason: CampaignWaitReason, recheckMs: number): Promise<void> {
    await markWaiting(this.db, userId, reason);
    await this.leases.release(userId);
    this.snoozed.set(userId, Date.now() + Math.max(this.tickMs, recheckMs * this.scale));
  }
}
