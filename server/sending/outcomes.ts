import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { campaignMsg } from '../../contract/campaigns';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { haltCampaign } from './campaign-lifecycle';
import type { ClaimedRow, LaneScope } from './claim';
import type { FailureAction } from './failures';
import { backoffMs } from './pacing';

/** After this many attempts a transient failure fails the recipient. */
export const MAX_ATTEMPTS = 5;
/** A burst of failures pauses the campaign: this many of the last window… */
export const BURST_FAILURES = 20;
/** …of this many outcomes. */
export const BURST_WINDOW = 50;

/** At most this many campaigns' windows are kept (about 1,000 × 50 booleans). */
export const MAX_WINDOWS = 1000;

/** What one send came to. */
export type Outcome =
  | { row: ClaimedRow; ok: true; providerMessageId: string }
  | { row: ClaimedRow; ok: false; failure: FailureAction };

/** A send that did not happen: its campaign was paused, cancelled or deleted after the claim (see RowClaims.handOver). */
export type Stopped = { row: ClaimedRow; stopped: true };

/**
 * Writes what happened to each send: sent rows move on, failed ones are retried, deferred, failed
 * or hold their campaign back (through the lifecycle), and a burst of failures pauses a campaign.
 */
export class Outcomes {
  /** The last BURST_WINDOW outcomes of each campaign (true: sent, or only deferred). */
  private readonly windows = new Map<string, boolean[]>();

  constructor(
    private readonly opts: {
      db: Db;
      log: FastifyBaseLogger;
      /** Multiplies every back-off (tests run the real rules faster). */
      scale: number;
      random: () => number;
      /**
       * WhatsApp restricted a number (463, 131048, 131056) or refused its credentials while it sent
       * a campaign that has other numbers: the number stops and its recipients go to the others.
       */
      restricted?: (lane: LaneScope, failure: { reason: string; restriction?: string }) => Promise<void>;
    },
  ) {}

  private get db(): Db {
    return this.opts.db;
  }

  /** A campaign that ended needs no window any more. */
  forget(campaignId: string): void {
    this.windows.delete(campaignId);
  }

  /** Writes what happened to each send; pauses a campaign on a failure that calls for it or on a burst of failures. */
  async apply(lane: LaneScope, done: Array<Outcome | Stopped>): Promise<void> {
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
      // A recipient handed to another number (its number was restricted) is no failure of the campaign.
      const moved = !o.ok && (await this.applyFailure(lane, o.row, o.failure));
      this.remember(o.row.campaignId, o.ok || o.failure.action === 'defer' || moved);
    }
    const burst = new Set<string>();
    for (const o of outcomes) {
      const window = this.windows.get(o.row.campaignId) ?? [];
      if (window.filter((ok) => !ok).length >= BURST_FAILURES) burst.add(o.row.campaignId);
    }
    for (const campaignId of burst) {
      this.windows.delete(campaignId);
      await haltCampaign(this.opts, campaignId, campaignMsg.pauseReason.burst(BURST_FAILURES, BURST_WINDOW));
    }
  }

  private remember(campaignId: string, ok: boolean): void {
    const window = this.windows.get(campaignId) ?? [];
    window.push(ok);
    if (window.length > BURST_WINDOW) window.splice(0, window.length - BURST_WINDOW);
    // Most recently sending last: a campaign that ended without `forget` here (cancelled, paused
    // by its user, finished on another process) falls off the front once MAX_WINDOWS others sent.
    this.windows.delete(campaignId);
    this.windows.set(campaignId, window);
    if (this.windows.size > MAX_WINDOWS) this.windows.delete(this.windows.keys().next().value as string);
  }

  /**
   * Failover: WhatsApp restricted the number (or refused its credentials) and the campaign has other
   * numbers: the row goes back to the queue for them, and the number stops. False when it does not apply.
   */
  private async failOver(
    lane: LaneScope,
    row: ClaimedRow,
    f: { reason: string; restriction?: string },
    requeueUnbound: SQL,
  ): Promise<boolean> {
    if (!f.restriction || !this.opts.restricted || !(await this.sharedCampaign(row.campaignId))) return false;
    await this.db.execute(requeueUnbound);
    await this.opts.restricted(lane, f);
    return true;
  }

  /** Whether a campaign is sent by several numbers (so one number's restriction need not pause it). */
  private async sharedCampaign(campaignId: string): Promise<boolean> {
    const [r] = rowsOf<{ n: number }>(
      await this.db.execute(sql`select cardinality(connection_ids)::int as n from campaigns where id = ${campaignId}`),
    );
    return (r?.n ?? 0) > 1;
  }

  /** How many campaigns have a window (tests). */
  get windowCount(): number {
    return this.windows.size;
  }

  /** Writes a failed send's outcome; answers true when its recipient went to the campaign's other numbers. */
  private async applyFailure(lane: LaneScope, row: ClaimedRow, f: FailureAction): Promise<boolean> {
    const requeue = (dueInMs: number, countAttempt: boolean, unbind = false): SQL => sql`
      update campaign_recipients set status = 'queued', claimed_by = null, lease_until = null,
        connection_id = ${unbind ? sql`null` : sql`connection_id`},
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
        if (await this.failOver(lane, row, f, requeue(0, false, true))) return true;
        if (row.attempts >= MAX_ATTEMPTS) {
          await this.db.execute(fail(`${campaignMsg.reason.tooManyAttempts} ${f.reason}`));
          return false;
        }
        const wait = Math.max(f.retryAfterMs ?? 0, backoffMs(row.attempts, this.opts.random)) * this.opts.scale;
        await this.db.execute(requeue(wait, true));
        return false;
      }
      case 'fail':
        await this.db.execute(fail(f.reason));
        return false;
      case 'defer':
        await this.db.execute(requeue(f.delayMs, false));
        return false;
      case 'pause':
        if (await this.failOver(lane, row, f, requeue(0, false, true))) return true;
        await this.db.execute(requeue(0, false));
        await haltCampaign(this.opts, row.campaignId, f.reason);
        return false;
      case 'offline':
        // The lane finds the number offline at its next step, and waits (or fails over) then.
        await this.db.execute(requeue(0, false));
        return false;
    }
  }
}
