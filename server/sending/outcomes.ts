import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { campaignMsg } from '../../contract/campaigns';
import type { Db } from '../db/client';
import { haltCampaign, markWaiting } from './campaign-lifecycle';
import type { ClaimedRow } from './claim';
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
  async apply(userId: string, done: Array<Outcome | Stopped>): Promise<void> {
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

  /** How many campaigns have a window (tests). */
  get windowCount(): number {
    return this.windows.size;
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
        const wait = Math.max(f.retryAfterMs ?? 0, backoffMs(row.attempts, this.opts.random)) * this.opts.scale;
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
        await haltCampaign(this.opts, row.campaignId, f.reason);
        return;
      case 'offline':
        await this.db.execute(requeue(0, false));
        await markWaiting(this.db, userId, 'offline');
        return;
    }
  }
}
