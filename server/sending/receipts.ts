import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { accountSql } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Receipt, WhatsappSubscriber } from '../whatsapp/driver';
import { RECEIPT_APPLY_ORDER, RECEIPT_FROM } from '../whatsapp/receipt-order';

const list = (items: readonly string[]) =>
  sql.join(
    items.map((s) => sql`${s}`),
    sql`, `,
  );

/** One statement for the receipts of one status: the rows they can move, moved and stamped. */
function applyStatus(db: Db, userId: string, s: Receipt['status'], receipts: Receipt[]) {
  const reached = (step: Receipt['status'][]) => step.includes(s);
  const ids = receipts.map((r) => r.providerMessageId);
  const ats = receipts.map((r) => r.at.toISOString());
  const errors = receipts.map((r) => r.error ?? null);
  return db.execute(sql`
    update campaign_recipients r set
      status = ${s},
      sent_at = coalesce(r.sent_at, v.at),
      delivered_at = ${reached(['delivered', 'read']) ? sql`coalesce(r.delivered_at, v.at)` : sql`r.delivered_at`},
      read_at = ${s === 'read' ? sql`coalesce(r.read_at, v.at)` : sql`r.read_at`},
      failed_at = ${s === 'failed' ? sql`coalesce(r.failed_at, v.at)` : sql`r.failed_at`},
      error = ${s === 'failed' ? sql`coalesce(v.error, 'Falha na entrega.')` : reached(['delivered', 'read']) ? sql`null` : sql`r.error`},
      updated_at = now()
    from unnest(${sql.param(ids)}::text[], ${sql.param(ats)}::timestamptz[], ${sql.param(errors)}::text[]) as v(id, at, error)
    where ${accountSql(userId, 'r.user_id')} and r.provider_message_id = v.id
      and r.status in (${list(RECEIPT_FROM[s])})
    returning r.provider_message_id as id
  `);
}

/**
 * Moves campaign recipients forward by their provider message ids and stamps the time of each step
 * (a 'read' also stamps 'delivered' when that receipt never came): one statement per status, and one
 * look-up for the ids that matched nothing. Answers the receipts whose message id is unknown (not a
 * campaign message, or one whose id is not written yet).
 */
export async function recordReceipts(db: Db, userId: string, receipts: Receipt[]): Promise<Receipt[]> {
  const unknown: Receipt[] = [];
  let pending = receipts;
  for (let tries = 1; pending.length; tries++) {
    const missed: Receipt[] = [];
    for (const s of RECEIPT_APPLY_ORDER) {
      const group = pending.filter((r) => r.status === s);
      if (!group.length) continue;
      const moved = new Set(rowsOf<{ id: string }>(await applyStatus(db, userId, s, group)).map((r) => r.id));
      for (const r of group) if (!moved.has(r.providerMessageId)) missed.push(r);
    }
    if (!missed.length) break;
    const ids = [...new Set(missed.map((r) => r.providerMessageId))];
    const known = new Map(
      rowsOf<{ id: string; status: string }>(
        await db.execute(sql`
          select provider_message_id as id, status from campaign_recipients
          where ${accountSql(userId)} and provider_message_id = any(${sql.param(ids)}::text[])`),
      ).map((r) => [r.id, r.status]),
    );
    // Already further on (an older receipt arriving late) settles it; no row at all is unknown; a row
    // that can still move had its message id written between the two statements (the send's answer
    // racing its own receipt on another connection): its update runs again.
    pending = [];
    for (const r of missed) {
      const status = known.get(r.providerMessageId);
      if (status === undefined) unknown.push(r);
      else if (RECEIPT_FROM[r.status].includes(status) && tries < 3) pending.push(r);
    }
  }
  return unknown;
}

/** One receipt: whether it matched a campaign message (moved it, or found it already further on). */
export async function recordReceipt(db: Db, userId: string, receipt: Receipt): Promise<boolean> {
  return (await recordReceipts(db, userId, [receipt])).length === 0;
}

/** A receipt can overtake the write of its own message id (the Cloud API answers, then the webhook races it): try again shortly. */
const LATE_RETRY_MS = [1000, 5000];
/** Receipts that could not be written (the database away for a moment) are tried again for a few minutes. */
const ERROR_RETRY_MS = [1000, 5000, 15_000, 60_000, 180_000];

/**
 * The sending engine's subscription to the WhatsApp layer: receipts move recipient rows forward.
 * The unknown ones of a batch are tried again together, twice, a little later.
 */
export function receiptsSubscriber(deps: { db: Db; log: FastifyBaseLogger }): WhatsappSubscriber {
  const later = (ms: number, fn: () => Promise<void>) => {
    setTimeout(() => {
      fn().catch((err) => deps.log.error({ err }, 'could not record WhatsApp receipts'));
    }, ms).unref();
  };
  const attempt = async (userId: string, receipts: Receipt[], late: number, failed: number): Promise<void> => {
    let unknown: Receipt[];
    try {
      unknown = await recordReceipts(deps.db, userId, receipts);
    } catch (err) {
      // A receipt is the only word that a message arrived or was read: it is not dropped on a failed write.
      if (failed >= ERROR_RETRY_MS.length) throw err;
      later(ERROR_RETRY_MS[failed], () => attempt(userId, receipts, late, failed + 1));
      return;
    }
    if (!unknown.length || late >= LATE_RETRY_MS.length) return;
    later(LATE_RETRY_MS[late], () => attempt(userId, unknown, late + 1, failed));
  };
  return {
    receipts: ({ userId, receipts }) =>
      attempt(userId, receipts, 0, 0).catch((err) => deps.log.error({ err }, 'could not record WhatsApp receipts')),
  };
}
