import type { Receipt } from './driver';

/**
 * Receipts only move a message forward, whatever order they arrive in: 'read' stays read. These are
 * the statuses a receipt may move a sent message from (a campaign recipient, a conversation's
 * message; a status a table never holds simply matches nothing). Meta does not order status
 * webhooks, and a 'delivered' or 'read' after a 'failed' is proof the message arrived, so those move
 * a failed message on too.
 */
export const RECEIPT_FROM: Readonly<Record<Receipt['status'], readonly string[]>> = {
  sent: ['queued', 'sending'],
  delivered: ['queued', 'sending', 'sent', 'failed'],
  read: ['queued', 'sending', 'sent', 'delivered', 'failed'],
  failed: ['queued', 'sending', 'sent'],
};

/** Statuses in the order a batch of receipts applies them: the same end state as any arrival order. */
export const RECEIPT_APPLY_ORDER: readonly Receipt['status'][] = ['sent', 'failed', 'delivered', 'read'];
