import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Receipt, WhatsappSubscriber } from '../whatsapp/driver';

/**
 * Statuses a receipt may move a recipient row from. Rows only move forward, whatever order the
 * receipts arrive in: 'read' stays read. Meta does not order status webhooks, and a 'delivered'
 * or 'read' after a 'failed' is proof the message arrived, so those move a failed row on too.
 */
const RECEIPT_FROM: Record<Receipt['status'], string[]> = {
  sent: ['queued', 'sending'],
  delivered: ['queued', 'sending', 'sent', 'failed'],
  read: ['queued', 'sending', 'sent', 'delivered', 'failed'],
  failed: ['queued', 'sending', 'sent'],
};

const list = (items: string[]) =>
  sql.join(
    items.map((s) => sql`${s}`),
    sql`, `,
  );

/**
 * Moves a campaign recipient forward by its provider message id and stamps the time of each step
 * (a 'read' also stamps 'delivered' when that receipt never came). Answers whether a row matched.
 */
export async function recordReceipt(db: Db, userId: string, receipt: Receipt): Promise<boolean> {
  const at = receipt.at.toISOString();
  const s = receipt.status;
  const reached = (step: Receipt['status'][]) => step.includes(s);
  for (let tries = 1; ; tries++) {
    const result = await db.execute(sql`
      update campaign_recipients set
        status = ${s},
        sent_at = coalesce(sent_at, ${at}::timestamptz),
        delivered_at = ${reached(['delivered', 'read']) ? sql`coalesce(delivered_at, ${at}::timestamptz)` : sql`delivered_at`},
        read_at = ${s === 'read' ? sql`coalesce(read_at, ${at}::timestamptz)` : sql`read_at`},
        failed_at = ${s === 'failed' ? sql`coalesce(failed_at, ${at}::timestamptz)` : sql`failed_at`},
        error = ${s === 'failed' ? sql`coalesce(${receipt.error ?? null}, 'Falha na entrega.')` : reached(['delivered', 'read']) ? sql`null` : sql`error`},
        updated_at = now()
      where user_id = ${userId} and provider_message_id = ${receipt.providerMessageId}
        and status in (${list(RECEIPT_FROM[s])})
      returning id
    `);
    if (rowsOf(result).length > 0) return true;
    // Already further on (an older receipt arriving late), not a campaign message at all — or its
    // message id was written between the two statements (the send's answer racing its own receipt
    // on another connection): then the row can still move, and the update runs again.
    const known = rowsOf<{ status: string }>(
      await db.execute(
        sql`select status from campaign_recipients where user_id = ${userId} and provider_message_id = ${receipt.providerMessageId} limit 1`,
      ),
    );
    if (!known.length) return false;
    if (!RECEIPT_FROM[s].includes(known[0].status) || tries >= 3) return true;
  }
}

/** A receipt can overtake the write of its own message id (the Cloud API answers, then the webhook races it): try again shortly. */
const LATE_RETRY_MS = [1000, 5000];
/** A receipt that could not be written (the database away for a moment) is tried again for a few minutes. */
const ERROR_RETRY_MS = [1000, 5000, 15_000, 60_000, 180_000];

/** The sending engine's subscription to the WhatsApp layer: receipts move recipient rows forward. */
export function receiptsSubscriber(deps: { db: Db; log: FastifyBaseLogger }): WhatsappSubscriber {
  const later = (ms: number, fn: () => Promise<void>) => {
    setTimeout(() => {
      fn().catch((err) => deps.log.error({ err }, 'could not record a WhatsApp receipt'));
    }, ms).unref();
  };
  const attempt = async (userId: string, receipt: Receipt, late: number, failed: number): Promise<void> => {
    let matched: boolean;
    try {
      matched = await recordReceipt(deps.db, userId, receipt);
    } catch (err) {
      // The receipt is the only word that the message arrived or was read: it is not dropped on a failed write.
      if (failed >= ERROR_RETRY_MS.length) throw err;
      later(ERROR_RETRY_MS[failed], () => attempt(userId, receipt, late, failed + 1));
      return;
    }
    if (matched || late >= LATE_RETRY_MS.length) return;
    later(LATE_RETRY_MS[late], () => attempt(userId, receipt, late + 1, failed));
  };
  return {
    receipt: ({ userId, receipt }) =>
      attempt(userId, receipt, 0, 0).catch((err) => deps.log.error({ err }, 'could not record a WhatsApp receipt')),
  };
}
