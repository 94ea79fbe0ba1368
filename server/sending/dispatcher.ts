import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CAMPAIGN_RUNNING, type CampaignWaitReason } from '../../contract/campaigns';
import {
  type ConnectionSettings,
  type ConnectionStopReason,
  FAILOVER_REASONS,
  RESTRICTION_MS,
  stopReasonLabels,
  withNumberSettings,
} from '../../contract/connections';
import { notificationMsg } from '../../contract/notifications';
import { startOfSaoPauloDay } from '../../contract/sao-paulo-time';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { notify } from '../records/notify';
import type { FileOpener } from '../whatsapp/account-file';
import type { ConnectionStore } from '../whatsapp/connection-store';
import type { Driver, DriverProvider } from '../whatsapp/driver';
import type { ImageLoader } from '../whatsapp/uploaded-image';
import { dueScheduledCampaigns, finishCampaigns, markWaiting, statusIn } from './campaign-lifecycle';
import { type LaneScope, RowClaims } from './claim';
import { DEFAULT_LEASE_MS, Lanes } from './lanes';
import { Outcomes } from './outcomes';
import { businessWindow, remainingToday } from './pacing';
import { type SendContext, type SendingSettings, sendCloud, sendPersonal } from './send-strategies';

// The dispatcher's parts: lanes and their leases (lanes.ts), claims on recipient rows (claim.ts),
// the two ways of sending (send-strategies.ts), what each send came to (outcomes.ts); every change
// of a campaign's status goes through campaign-lifecycle.ts.
export { DEFAULT_LEASE_MS } from './lanes';
export { BURST_FAILURES, BURST_WINDOW, MAX_ATTEMPTS } from './outcomes';
export type { SendingSettings } from './send-strategies';

/** What a number's lane needs to know of it (`connections`, as the WhatsApp layer's directory reads it). */
export interface NumberInfo {
  label: string;
  isDefault: boolean;
  paused: boolean;
  settings: ConnectionSettings;
  restrictedAt: Date | null;
  loggedOutAt: Date | null;
  stopReason: ConnectionStopReason | null;
}

export interface DispatcherOptions {
  db: Db;
  drivers: DriverProvider;
  /** One of an account's numbers, or undefined when it was removed. */
  numbers: (userId: string, connectionId: string) => Promise<NumberInfo | undefined>;
  /** Writes a number's row (why it stopped, a restriction): the one writer of `connections`. */
  store: ConnectionStore;
  /** The dispatcher changed a number's row (why it stopped, a restriction): every process reads it again. */
  numberChanged?: (userId: string) => void;
  log: FastifyBaseLogger;
  settings: (userId: string) => Promise<SendingSettings>;
  /** Starts a scheduled campaign whose time has come (the same path as 'Enviar Campanha'). */
  startScheduled: (userId: string, campaignId: string) => Promise<void>;
  loadImage?: ImageLoader;
  /** Reads one of the account's files where it is sent (a campaign's `mediaUrl`). */
  openFile?: FileOpener;
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
 * dispatcher starts scheduled campaigns that are due and runs one lane per number with work (the
 * numbers a running campaign chose, or its account's default): a lane holds a lease row (one
 * process per number at a time), claims due rows with `FOR UPDATE SKIP LOCKED`, and sends them
 * paced as the number's settings say (the account's, where the number has none of its own): on a
 * personal number one at a time with the delay plus jitter, typing first, within the daily limit
 * and its warm-up and business hours; on the Cloud API at the number's throughput with many
 * requests in flight. A campaign over several numbers is shared by claiming: each number's lane
 * takes the next rows as fast as its own pace and capacity allow, so the rows spread by capacity.
 * A number that stops (disconnected, restricted, logged out, at its daily limit, paused) records
 * why and hands its queued rows back to the campaign's other numbers. Work that may not go out now
 * waits (`in_progress`, with the reason, once no number of the campaign can send) and resumes by
 * itself.
 *
 * A claim only reserves a row (it stays `queued`, leased to this process): each row becomes
 * `sending` right before its own send, in one statement that also reads its campaign's status
 * (handOver), so a pause or cancel that lands between the claim and the send stops that send.
 */
export class Dispatcher {
  readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  /** Running lanes, by number, and whose each number is. */
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly laneOwners = new Map<string, string>();
  /** Numbers whose lane found nothing it may send, and when to look again (no query per tick for them). */
  private readonly snoozed = new Map<string, { until: number; userId: string }>();
  /** Numbers WhatsApp restricted while their lane ran: the lane stops at its next step. */
  private readonly halted = new Set<string>();
  private stopped = true;
  private ticking: Promise<void> | null = null;
  private readonly tickMs: number;
  private readonly scale: number;
  private readonly leases: Lanes;
  private readonly claims: RowClaims;
  private readonly outcomes: Outcomes;
  private readonly send: SendContext;
  /** Running lanes (numbers) to hand on at their next step: their settings changed, or their owner did. */
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
    this.outcomes = new Outcomes({
      db,
      log,
      scale: this.scale,
      random,
      restricted: (lane, failure) => this.restricted(lane, failure),
    });
    this.send = {
      db,
      log,
      lanes: this.leases,
      claims: this.claims,
      outcomes: this.outcomes,
      scale: this.scale,
      random,
      stopped: () => this.stopped,
      yields: (connectionId) =>
        this.restless.has(connectionId) || this.halted.has(connectionId) || !this.owns(connectionId),
      loadImage: opts.loadImage,
      openFile: opts.openFile,
      cloudThroughput: opts.cloudThroughput,
      cloudConcurrency: opts.cloudConcurrency,
    };
  }

  private get db(): Db {
    return this.opts.db;
  }

  /** Whether this process runs a number's lane (rendezvous over the live processes). */
  private owns(connectionId: string): boolean {
    return this.opts.cluster ? this.opts.cluster.owns(connectionId) : true;
  }

  /**
   * The account's sending settings or numbers changed (here or in another process): its waiting
   * lanes look again at once, its running ones take the new settings before their next message.
   */
  settingsChanged(userId: string): void {
    for (const [connectionId, s] of this.snoozed) if (s.userId === userId) this.snoozed.delete(connectionId);
    for (const [connectionId, owner] of this.laneOwners) if (owner === userId) this.restless.add(connectionId);
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
    // The numbers with work: those running campaigns chose, or their account's default. A sweep
    // over every account's running campaigns, each joined to its own account's numbers.
    const numbers = rowsOf<{ user_id: string; connection_id: string; is_default: boolean }>(
      await this.db.execute(sql`
        select distinct c.user_id, n.id as connection_id, n.is_default from campaigns c
        join connections n using (user_id)
        where c.status ${statusIn(CAMPAIGN_RUNNING)} and n.deleted_at is null
          and (n.id = any(c.connection_ids) or (cardinality(c.connection_ids) = 0 and n.is_default))`),
    );
    const now = Date.now();
    for (const { user_id: userId, connection_id: connectionId, is_default: isDefault } of numbers) {
      if (this.stopped || this.lanes.has(connectionId) || !this.owns(connectionId)) continue;
      if ((this.snoozed.get(connectionId)?.until ?? 0) > now) continue;
      this.snoozed.delete(connectionId);
      const scope: LaneScope = { userId, connectionId, isDefault: Boolean(isDefault) };
      const lane = this.runLane(scope)
        .catch((err) => this.opts.log.error({ err, userId, connectionId }, 'campaign lane failed'))
        .finally(() => {
          this.lanes.delete(connectionId);
          this.laneOwners.delete(connectionId);
          this.restless.delete(connectionId);
        });
      this.lanes.set(connectionId, lane);
      this.laneOwners.set(connectionId, userId);
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

  private async runLane(scope: LaneScope): Promise<void> {
    const { userId, connectionId } = scope;
    while (!this.stopped) {
      this.restless.delete(connectionId);
      // Another process owns this number's lane now (it joined, or this one is draining): hand it on.
      if (!this.owns(connectionId)) break;
      const state = await this.leases.acquire(connectionId, userId);
      if (!state) return;
      const number = await this.opts.numbers(userId, connectionId);
      if (!number) {
        // Removed: what it held goes to the campaign's other numbers.
        await this.claims.releaseNumber(connectionId);
        await this.leases.release(connectionId);
        return;
      }
      const lane: LaneScope = { ...scope, isDefault: number.isDefault };
      const now = new Date();
      if (number.paused) return this.stopNumber(lane, number, 'paused', WAIT_RECHECK_MS);
      if (
        this.halted.has(connectionId) ||
        (number.restrictedAt && now.getTime() - number.restrictedAt.getTime() < RESTRICTION_MS)
      ) {
        this.halted.delete(connectionId);
        return this.stopNumber(lane, number, 'restricted', WAIT_RECHECK_MS);
      }
      const driver = this.opts.drivers.getConnection
        ? await this.opts.drivers.getConnection(userId, connectionId)
        : await this.opts.drivers.get(userId);
      if (!driver)
        return this.stopNumber(lane, number, number.loggedOutAt ? 'logged_out' : 'disconnected', OFFLINE_RECHECK_MS);
      const settings = withNumberSettings(await this.opts.settings(userId), number.settings);
      const window = businessWindow(settings, now);
      if (!window.open) {
        const opensIn = window.opensAt ? window.opensAt.getTime() - now.getTime() : WAIT_RECHECK_MS;
        return this.stopNumber(lane, number, 'outside_hours', Math.min(opensIn, WAIT_RECHECK_MS));
      }
      const personal = driver.kind !== 'cloud';
      const sentToday = await this.sentSince(lane, startOfSaoPauloDay(now));
      const remaining = remainingToday({
        dailyLimit: settings.dailyLimit,
        sentToday,
        // A real personal number warms up; the simulator has no ban to avoid and the Cloud API its own limits.
        warmup:
          driver.kind === 'baileys' && number.settings.warmup !== false
            ? { warmupStartedAt: state.warmupStartedAt, lastSentAt: state.lastSentAt }
            : null,
        at: now,
      });
      if (remaining <= 0) return this.stopNumber(lane, number, 'daily_limit', WAIT_RECHECK_MS);
      const conversations = personal ? Number.POSITIVE_INFINITY : await this.conversationsLeft(lane, driver);
      if (conversations <= 0) return this.stopNumber(lane, number, 'messaging_limit', WAIT_RECHECK_MS);
      if (number.stopReason) await this.going(lane);
      const more = personal
        ? await sendPersonal(this.send, lane, driver, settings, state)
        : await sendCloud(this.send, lane, driver, Math.min(remaining, conversations));
      if (!more) {
        for (const id of await finishCampaigns(this.opts, userId)) this.outcomes.forget(id);
        await this.leases.release(connectionId);
        return;
      }
    }
    await this.leases.release(connectionId);
  }

  /**
   * The number sends nothing now, and says why. On the way in (a new reason) a reason that calls
   * for it hands the number's queued recipients to the campaign's other numbers, and a number lost
   * or restricted while it had work is told to its owner. Its campaigns wait when none of their
   * numbers can send.
   */
  private async stopNumber(
    lane: LaneScope,
    number: NumberInfo,
    reason: ConnectionStopReason,
    recheckMs: number,
  ): Promise<void> {
    const changed = await this.opts.store.recordStop(this.db, lane.connectionId, reason);
    // Rows given to it meanwhile (a campaign started since, its sticky contacts) go too: cheap when
    // there are none (a partial index holds the queued rows given to a number).
    const moved = FAILOVER_REASONS.includes(reason) ? await this.claims.releaseNumber(lane.connectionId) : 0;
    if (moved) {
      this.opts.log.warn(
        { connectionId: lane.connectionId, reason, moved },
        'a number stopped; its recipients move to the others',
      );
    }
    if (changed) {
      if (reason === 'restricted' || reason === 'logged_out' || reason === 'disconnected') {
        await notify(this.db, this.opts.log, lane.userId, {
          kind: 'number_stopped',
          title: notificationMsg.numberStopped.title,
          body: notificationMsg.numberStopped.body(number.label, stopReasonLabels[reason]),
        });
      }
      this.opts.numberChanged?.(lane.userId);
    }
    await markWaiting(this.db, lane, WAIT_REASON[reason]);
    await this.leases.release(lane.connectionId);
    this.snoozed.set(lane.connectionId, {
      until: Date.now() + Math.max(this.tickMs, recheckMs * this.scale),
      userId: lane.userId,
    });
  }

  /** The number can send again: its stop reason goes. */
  private async going(lane: LaneScope): Promise<void> {
    const changed = await this.opts.store.clearStop(this.db, lane.connectionId);
    if (changed) this.opts.numberChanged?.(lane.userId);
  }

  /** WhatsApp restricted a number mid-campaign (or refused its credentials): recorded, and its lane stops. */
  private async restricted(lane: LaneScope, failure: { reason: string; restriction?: string }): Promise<void> {
    if (this.halted.has(lane.connectionId)) return;
    this.halted.add(lane.connectionId);
    const code = failure.restriction ?? 'restricted';
    await this.opts.store.recordRestriction(this.db, lane.connectionId, code);
    this.opts.log.warn({ connectionId: lane.connectionId, code }, 'WhatsApp restricted a number during a campaign');
    this.opts.numberChanged?.(lane.userId);
  }

  /**
   * Cloud API: how many more people may get a message under Meta's messaging limit, counting the
   * distinct contacts this account sent campaign messages to in the last 24 hours (unlimited when
   * the limit cannot be read).
   */
  private async conversationsLeft(lane: LaneScope, driver: Driver): Promise<number> {
    const limit = driver.messagingLimit ? await driver.messagingLimit() : null;
    if (limit === null || limit === 'unlimited') return Number.POSITIVE_INFINITY;
    const [r] = rowsOf<{ n: number }>(
      await this.db.execute(sql`
        select count(distinct recipient)::int as n from campaign_recipients
        where ${accountSql(lane.userId)} and ${byNumber(lane)} and kind = 'contact' and sent_at > now() - interval '24 hours'
      `),
    );
    return limit - r.n;
  }

  /** What the number sent since `since` (rows from before numbers were connections count for the default). */
  private async sentSince(lane: LaneScope, since: Date): Promise<number> {
    const [r] = rowsOf<{ n: number }>(
      await this.db.execute(
        sql`select count(*)::int as n from campaign_recipients
          where ${accountSql(lane.userId)} and sent_at >= ${since.toISOString()}::timestamptz and ${byNumber(lane)}`,
      ),
    );
    return r.n;
  }
}

/** Campaign rows a number sent; rows from before numbers were connections count for the default number. */
const byNumber = (lane: LaneScope) =>
  lane.isDefault
    ? sql`(connection_id = ${lane.connectionId}::uuid or connection_id is null)`
    : sql`connection_id = ${lane.connectionId}::uuid`;

/** What a campaign waits for when its numbers stopped for a reason. */
const WAIT_REASON: Record<ConnectionStopReason, CampaignWaitReason> = {
  disconnected: 'offline',
  logged_out: 'offline',
  restricted: 'numbers_stopped',
  paused: 'numbers_stopped',
  daily_limit: 'daily_limit',
  outside_hours: 'outside_hours',
  messaging_limit: 'messaging_limit',
};
