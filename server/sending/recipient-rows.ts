import type { RecipientStatus } from '../../contract/campaigns';
import { type BulkTable, type BulkValue, bulkInsert } from '../db/bulk-insert';
import type { Db } from '../db/client';
import { timeOrderedIds } from '../lib/ids';

/**
 * `campaign_recipients` is written by the engine only: the planner writes a start's rows
 * (planner.ts), the dispatcher and the receipts move them on, and a restore writes its report
 * lines through `restoreRecipientRows` below.
 */

/** A report line as a backup carries it (dates as ISO text). */
export interface RestoredRecipient {
  contactId: string | null;
  recipient: string;
  kind: 'contact' | 'group';
  name: string;
  email: string | null;
  status: RecipientStatus;
  error: string | null;
  attempts: number;
  queuedAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
}

/** Statuses a restored line keeps: it went out, failed or was skipped. */
const ENDED = new Set<RecipientStatus>(['sent', 'delivered', 'read', 'failed', 'skipped']);

/** Report lines as the bulk loader writes them (COPY): the campaign and the account once per batch. */
const recipientTable = (campaignId: string, userId: string): BulkTable => ({
  table: 'campaign_recipients',
  fixed: [
    { name: 'campaign_id', type: 'uuid', value: campaignId },
    { name: 'user_id', type: 'uuid', value: userId },
  ],
  columns: [
    { name: 'id', type: 'uuid' },
    { name: 'contact_id', type: 'uuid' },
    { name: 'recipient', type: 'text' },
    { name: 'kind', type: 'text' },
    { name: 'name', type: 'text' },
    { name: 'email', type: 'text' },
    { name: 'status', type: 'text' },
    { name: 'error', type: 'text' },
    { name: 'attempts', type: 'integer' },
    { name: 'created_at', type: 'timestamptz' },
    { name: 'due_at', type: 'timestamptz' },
    { name: 'sent_at', type: 'timestamptz' },
    { name: 'delivered_at', type: 'timestamptz' },
    { name: 'read_at', type: 'timestamptz' },
    { name: 'failed_at', type: 'timestamptz' },
  ],
});

/**
 * Writes a restored campaign's report lines, inside the caller's transaction, through the bulk
 * loader. A restored line is never sent: one that had not ended (queued or sending) is written
 * `skipped` with `notSentReason`. The caller leaves out lines the campaign already holds (the
 * campaign is new in its transaction), so the loader copies straight into the table. Answers how
 * many went in.
 */
export async function restoreRecipientRows(
  tx: Db,
  campaign: { id: string; userId: string },
  lines: RestoredRecipient[],
  notSentReason: string,
): Promise<number> {
  const ids = timeOrderedIds(lines.length);
  const rows: BulkValue[][] = lines.map((r, k) => {
    const ended = ENDED.has(r.status);
    return [
      ids[k],
      r.contactId,
      r.recipient,
      r.kind,
      r.name,
      r.email,
      ended ? r.status : 'skipped',
      ended ? r.error : notSentReason,
      r.attempts,
      r.queuedAt,
      r.queuedAt,
      r.sentAt,
      r.deliveredAt,
      r.readAt,
      r.failedAt,
    ];
  });
  return bulkInsert(tx, recipientTable(campaign.id, campaign.userId), rows, { keysExcluded: true });
}
