import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { campaignRecipients } from '../db/schema';
import type { Receipt, WhatsappSubscriber } from '../whatsapp/driver';

type RecipientStatus = (typeof campaignRecipients.$inferSelect)['status'];

/** Statuses a receipt may move a recipient row from (never backwards: read stays read). */
const RECEIPT_FROM: Record<Receipt['status'], RecipientStatus[]> = {
  sent: ['queued', 'sending'],
  delivered: ['queued', 'sending', 'sent'],
  read: ['queued', 'sending', 'sent', 'delivered'],
  failed: ['queued', 'sending', 'sent'],
};

/** Moves a campaign recipient forward by its provider message id (never backwards). */
export async function recordReceipt(db: Db, userId: string, receipt: Receipt): Promise<void> {
  await db
    .update(campaignRecipients)
    .set({
      status: receipt.status,
      updatedAt: new Date(),
      ...(receipt.status === 'failed' ? { error: receipt.error ?? 'Falha na entrega' } : {}),
    })
    .where(
      and(
        eq(campaignRecipients.userId, userId),
        eq(campaignRecipients.providerMessageId, receipt.providerMessageId),
        inArray(campaignRecipients.status, RECEIPT_FROM[receipt.status]),
      ),
    );
}

/** The sending engine's subscription to the WhatsApp layer: receipts move recipient rows forward. */
export function receiptsSubscriber(deps: { db: Db; log: FastifyBaseLogger }): WhatsappSubscriber {
  return {
    receipt: ({ userId, receipt }) =>
      recordReceipt(deps.db, userId, receipt).catch((err) =>
        deps.log.error({ err }, 'could not record a WhatsApp receipt'),
      ),
  };
}
