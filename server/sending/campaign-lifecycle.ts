import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  CAMPAIGN_RUNNING,
  CAMPAIGN_TRANSITIONS,
  type CampaignAction,
  type CampaignStatus,
  type CampaignWaitReason,
  campaignMsg,
  isCampaignStatusIn,
} from '../../contract/campaigns';
import { contactLimitFor } from '../../contract/plans';
import { accountSql, acrossAccounts, ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { campaignRecipients, campaigns, users } from '../db/schema';
import { AppError } from '../errors';
import { record } from '../records/events';
import type { LaneScope } from './claim';
import { type PlanResult, planRecipients } from './planner';

/**
 * A campaign's life, in one place: every change of a campaign's status — asked for by its user
 * (send, pause, resume, cancel, edit) or made by the send loop (waiting with a reason, going on,
 * paused by a failure, finished) — goes through a function here, which checks the move against the
 * transition table, makes it in one statement or transaction guarded by the statuses it may leave,
 * and then records its activity line and notification. Those two are written after the change
 * commits and never throw (`record`, records/events.ts): a log line that could not be written
 * must not undo the change.
 *
 * The statuses each move may leave come from the contract (`CAMPAIGN_TRANSITIONS` for the user's
 * actions, its status groups for the engine's), so the server's SQL and the browser's buttons read
 * one table.
 */

type CampaignRow = typeof campaigns.$inferSelect;
/** Columns a change may set (never the id or the account). */
export type CampaignFields = Partial<Omit<typeof campaigns.$inferInsert, 'id' | 'userId'>>;

export interface LifecycleContext {
  db: Db;
  log: FastifyBaseLogger;
  /** Told after a change commits (the campaigns module drops the campaign's cached counters). */
  changed?: (campaignId: string) => void;
}

/** Where each user action leads, from the statuses the contract lets it leave. */
export const USER_TRANSITIONS = {
  send: { from: CAMPAIGN_TRANSITIONS.send, to: ['sending', 'completed'] },
  pause: { from: CAMPAIGN_TRANSITIONS.pause, to: ['paused'] },
  // On where it stopped, or back to its schedule when it never started.
  resume: { from: CAMPAIGN_TRANSITIONS.resume, to: ['sending', 'scheduled'] },
  cancel: { from: CAMPAIGN_TRANSITIONS.cancel, to: ['cancelled'] },
  edit: { from: CAMPAIGN_TRANSITIONS.edit, to: ['draft', 'scheduled'] },
} as const satisfies Record<CampaignAction, { from: readonly CampaignStatus[]; to: readonly CampaignStatus[] }>;

/** The moves the send loop makes by itself, and the statuses each may leave. */
export const ENGINE_TRANSITIONS = {
  /** Work that may not go out now waits, with the reason (outside hours, a limit, offline). */
  wait: { from: CAMPAIGN_RUNNING, to: ['in_progress'] },
  /** A waiting campaign goes on once a message goes out. */
  goOn: { from: ['in_progress'], to: ['sending'] },
  /** A failure that calls for it (or a burst of failures) pauses the campaign. */
  halt: { from: CAMPAIGN_RUNNING, to: ['paused'] },
  /** Nothing left to send: completed, or failed when every send failed. */
  finish: { from: CAMPAIGN_RUNNING, to: ['completed', 'failed'] },
  /** A scheduled campaign whose time has come starts as a click on 'Enviar Campanha' does. */
  startScheduled: { from: ['scheduled'], to: ['sending', 'completed'] },
} as const satisfies Record<string, { from: readonly CampaignStatus[]; to: readonly CampaignStatus[] }>;

/** Whether the contract lets `action` move a campaign from `status`. */
export function canTransition(action: CampaignAction, status: string): boolean {
  return isCampaignStatusIn(USER_TRANSITIONS[action].from, status);
}

/** A 409 naming the action and the status, unless the contract lets `action` leave `status`. */
export function assertTransition(action: CampaignAction, status: string): void {
  if (!canTransition(action, status)) throw new AppError('CONFLICT', campaignMsg.transition(action, status));
}

/**
 * A status group as SQL, `in ('sending', 'in_progress')`: spelt out as literals (they are the
 * contract's constants), so the text is what a hand-written query says and the partial index on
 * live campaigns (`campaigns_active_idx`) still applies.
 */
export function statusIn(group: readonly string[]): SQL {
  for (const s of group) if (!/^[a-z_]+$/.test(s)) throw new Error(`not a status: ${s}`);
  return sql.raw(`in (${group.map((s) => `'${s}'`).join(', ')})`);
}

/** The account's campaign, or the pt-BR 404. */
export async function currentRow(db: Db, userId: string, id: string): Promise<CampaignRow> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(ofAccount(campaigns, userId, eq(campaigns.id, id)));
  if (!row) throw new AppError('NOT_FOUND', campaignMsg.notFound);
  return row;
}

/** Moves a campaign from one of the statuses `action` may leave, in one statement; a 404 or a 409 otherwise. */
async function move(
  db: Db,
  userId: string,
  id: string,
  action: CampaignAction,
  set: CampaignFields,
): Promise<CampaignRow> {
  const [row] = await db
    .update(campaigns)
    .set({ ...set, updatedAt: new Date() })
    .where(
      ofAccount(campaigns, userId, eq(campaigns.id, id), inArray(campaigns.status, [...USER_TRANSITIONS[action].from])),
    )
    .returning();
  if (row) return row;
  const current = await currentRow(db, userId, id);
  throw new AppError('CONFLICT', campaignMsg.transition(action, current.status));
}

/* ---------- the user's actions ---------- */

/** A start this large is followed by a vacuum of the recipients table. */
const VACUUM_AFTER_ROWS = 5_000;

/**
 * Writes a start: the recipient rows and the campaign handed to the dispatcher, in one transaction
 * with the campaign row locked, so two clicks (or a click racing the scheduler) start it once. A
 * campaign that is no longer a draft or scheduled is a 409; one without any recipient stays as it
 * was (400). One where every recipient is skipped ends at once.
 */
async function writeStart(db: Db, userId: string, campaignId: string): Promise<PlanResult & { name: string }> {
  const plan = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: campaigns.id,
        userId: campaigns.userId,
        name: campaigns.name,
        status: campaigns.status,
        targetType: campaigns.targetType,
        targetGroups: campaigns.targetGroups,
        targetTags: campaigns.targetTags,
        connectionIds: campaigns.connectionIds,
        planType: users.planType,
      })
      .from(campaigns)
      .innerJoin(users, eq(users.id, campaigns.userId))
      .where(ofAccount(campaigns, userId, eq(campaigns.id, campaignId)))
      .for('update', { of: campaigns });
    if (!row) throw new AppError('NOT_FOUND', campaignMsg.notFound);
    assertTransition('send', row.status);
    const plan = await planRecipients(tx, row, contactLimitFor(row.planType));
    if (plan.total === 0) throw new AppError('VALIDATION', campaignMsg.noRecipients);
    const done = plan.queued === 0;
    await tx
      .update(campaigns)
      .set({
        status: done ? 'completed' : 'sending',
        startedAt: new Date(),
        finishedAt: done ? new Date() : null,
        pauseReason: null,
        waitingReason: null,
        updatedAt: new Date(),
      })
      .where(ofAccount(campaigns, userId, eq(campaigns.id, campaignId)));
    return { ...plan, name: row.name };
  });
  if (plan.total >= VACUUM_AFTER_ROWS) {
    // Fresh rows make every count visit the heap until the table is vacuumed (visibility map) and the
    // planner has no statistics for them; PGlite has no autovacuum. After answering; harmless if it fails.
    void db.execute(sql`vacuum analyze campaign_recipients`).catch(() => undefined);
  }
  return plan;
}

/** 'Enviar Campanha': starts a draft or scheduled campaign now (see writeStart). */
export async function startCampaign(ctx: LifecycleContext, userId: string, campaignId: string): Promise<PlanResult> {
  const { name, ...plan } = await writeStart(ctx.db, userId, campaignId);
  ctx.changed?.(campaignId);
  await record(ctx.db, { kind: 'campaign_started', by: { userId, actorId: userId }, campaign: name }, ctx);
  return plan;
}

/** The dispatcher starts a scheduled campaign whose time has come: the same start, recorded by nobody. */
export async function startScheduledCampaign(db: Db, userId: string, campaignId: string): Promise<PlanResult> {
  const { name: _, ...plan } = await writeStart(db, userId, campaignId);
  return plan;
}

/** Pauses: nothing more goes out until resumed. */
export async function pauseCampaign(ctx: LifecycleContext, userId: string, id: string): Promise<void> {
  const row = await move(ctx.db, userId, id, 'pause', { status: 'paused', waitingReason: null });
  ctx.changed?.(id);
  await record(ctx.db, { kind: 'campaign_paused', by: { userId, actorId: userId }, campaign: row.name }, ctx);
}

/**
 * A paused campaign goes on where it stopped; one paused before it ever started goes back to its
 * schedule, or starts now when its time has passed (or it had none).
 */
export async function resumeCampaign(ctx: LifecycleContext, userId: string, id: string): Promise<void> {
  const current = await currentRow(ctx.db, userId, id);
  assertTransition('resume', current.status);
  if (current.startedAt) {
    await move(ctx.db, userId, id, 'resume', { status: 'sending', pauseReason: null });
  } else {
    await move(ctx.db, userId, id, 'resume', { status: 'scheduled', pauseReason: null });
    const startNow = !current.scheduledAt || current.scheduledAt.getTime() <= Date.now();
    if (startNow) await writeStart(ctx.db, userId, id);
  }
  ctx.changed?.(id);
  await record(ctx.db, { kind: 'campaign_resumed', by: { userId, actorId: userId }, campaign: current.name }, ctx);
}

/**
 * Cancels: nothing more goes out; recipients not yet sent become skipped, so the report says why.
 * `record: false` when the cancel is part of a delete (which records nothing).
 */
export async function cancelCampaign(
  ctx: LifecycleContext,
  userId: string,
  id: string,
  opts: { record?: boolean } = {},
): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const row = await move(tx, userId, id, 'cancel', {
      status: 'cancelled',
      finishedAt: new Date(),
      waitingReason: null,
    });
    // The campaign was just moved as the account's; its rows by campaign (campaign_status_idx).
    await tx
      .update(acrossAccounts(campaignRecipients))
      .set({ status: 'skipped', error: campaignMsg.reason.cancelled, updatedAt: new Date() })
      .where(and(eq(campaignRecipients.campaignId, id), eq(campaignRecipients.status, 'queued')));
    return row;
  });
  ctx.changed?.(id);
  if (opts.record === false) return;
  await record(ctx.db, { kind: 'campaign_cancelled', by: { userId, actorId: userId }, campaign: row.name }, ctx);
}

/**
 * An edit of a draft or scheduled campaign (which may move it between the two): the fields the
 * campaigns module validated, written only while the campaign may still be edited; a 409 otherwise.
 */
export async function editCampaign(db: Db, userId: string, id: string, set: CampaignFields): Promise<CampaignRow> {
  return move(db, userId, id, 'edit', set);
}

/* ---------- the send loop's moves ---------- */

/** Scheduled campaigns whose time has come, oldest first. */
export async function dueScheduledCampaigns(db: Db, limit: number): Promise<Array<{ id: string; user_id: string }>> {
  return rowsOf<{ id: string; user_id: string }>(
    await db.execute(
      sql`select id, user_id from campaigns where status ${statusIn(ENGINE_TRANSITIONS.startScheduled.from)} and scheduled_at <= now() order by scheduled_at limit ${limit}`,
    ),
  );
}

/**
 * The running campaigns a number's lane sends (campaign alias `c`): those that chose it, and, for
 * the account's default number, those that chose none.
 */
export function sentBy(lane: LaneScope): SQL {
  return sql`${accountSql(lane.userId, 'c.user_id')} and (${lane.connectionId}::uuid = any(c.connection_ids)
    or (cardinality(c.connection_ids) = 0 and ${lane.isDefault}::boolean))`;
}

/** Campaigns this number sends that were waiting go back to `sending` once a message goes out. */
export async function markGoingOn(db: Db, lane: LaneScope): Promise<void> {
  await db.execute(sql`
    update campaigns c set status = 'sending', waiting_reason = null, updated_at = now()
    where ${sentBy(lane)} and c.status ${statusIn(ENGINE_TRANSITIONS.goOn.from)}
  `);
}

/**
 * The running campaigns this number sends wait, with the reason (written once per reason), when
 * none of their numbers can send now: each number's lane records why it stopped
 * (`connections.stop_reason`) before it asks.
 */
export async function markWaiting(db: Db, lane: LaneScope, reason: CampaignWaitReason): Promise<void> {
  await db.execute(sql`
    update campaigns c set status = 'in_progress', waiting_reason = ${reason}, updated_at = now()
    where ${sentBy(lane)} and c.status ${statusIn(ENGINE_TRANSITIONS.wait.from)}
      and c.waiting_reason is distinct from ${reason}
      and not exists (
        select 1 from connections n
        where ${accountSql(lane.userId, 'n.user_id')} and n.deleted_at is null and n.stop_reason is null
          and (n.id = any(c.connection_ids) or (cardinality(c.connection_ids) = 0 and n.is_default)))
  `);
}

/** The send loop pauses a running campaign (a failure that calls for it, a burst of failures), with the reason. */
export async function haltCampaign(
  ctx: Omit<LifecycleContext, 'changed'>,
  campaignId: string,
  reason: string,
): Promise<void> {
  const { db, log } = ctx;
  const [paused] = rowsOf<{ user_id: string; name: string }>(
    await db.execute(sql`
      update campaigns set status = 'paused', pause_reason = ${reason}, waiting_reason = null, updated_at = now()
      where id = ${campaignId} and status ${statusIn(ENGINE_TRANSITIONS.halt.from)}
      returning user_id, name
    `),
  );
  log.warn({ campaignId, reason }, 'campaign paused by the dispatcher');
  if (!paused) return;
  await record(
    db,
    {
      kind: 'campaign_halted',
      by: { userId: paused.user_id, actorId: null },
      campaignId,
      campaign: paused.name,
      reason,
    },
    ctx,
  );
}

/**
 * The account's running campaigns with nothing left to send end: completed, or failed when every
 * send failed. Answers the ids of those that ended.
 */
export async function finishCampaigns(ctx: Omit<LifecycleContext, 'changed'>, userId: string): Promise<string[]> {
  const { db, log } = ctx;
  const ended = rowsOf<{ id: string; status: string; name: string; sent: number; failed: number }>(
    await db.execute(sql`
      update campaigns c set
        status = case
          when exists (select 1 from campaign_recipients r where r.campaign_id = c.id and r.status in ('sent', 'delivered', 'read'))
            or not exists (select 1 from campaign_recipients r where r.campaign_id = c.id and r.status = 'failed')
          then 'completed' else 'failed' end,
        finished_at = now(), waiting_reason = null, updated_at = now()
      where ${accountSql(userId, 'c.user_id')} and c.status ${statusIn(ENGINE_TRANSITIONS.finish.from)}
        and not exists (select 1 from campaign_recipients r where r.campaign_id = c.id and r.status in ('queued', 'sending'))
      returning c.id, c.status, c.name,
        (select count(*)::int from campaign_recipients r where r.campaign_id = c.id and r.status in ('sent', 'delivered', 'read')) as sent,
        (select count(*)::int from campaign_recipients r where r.campaign_id = c.id and r.status = 'failed') as failed
    `),
  );
  for (const c of ended) {
    log.info({ campaignId: c.id, status: c.status }, 'campaign finished');
    const completed = c.status === 'completed';
    const by = { userId, actorId: null };
    const campaign = { campaignId: c.id, campaign: c.name, failed: Number(c.failed) };
    await record(
      db,
      completed
        ? { kind: 'campaign_completed', by, ...campaign, sent: Number(c.sent) }
        : { kind: 'campaign_failed', by, ...campaign },
      ctx,
    );
  }
  return ended.map((c) => c.id);
}
