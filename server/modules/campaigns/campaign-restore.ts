import { sql } from 'drizzle-orm';
import { type BackupFile, backupMsg, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import {
  CAMPAIGN_FINISHED,
  CAMPAIGN_NOT_STARTED,
  type CampaignStatus,
  isCampaignStatusIn,
} from '../../../contract/campaigns';
import { UPLOAD_REF_PREFIX, uploadIdOf } from '../../../contract/uploads';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { campaigns } from '../../db/schema';
import { multiset, takeFrom } from '../../lib/multiset';
import { type RestoredRecipient, restoreRecipientRows } from '../../sending/recipient-rows';
import type { RestorePace } from '../contacts';

// Restore (modules/backup): the rows of a backup's campaigns, written here as campaigns are.

/**
 * Report lines per statement on restore: on the embedded database a statement holds the server's
 * thread, and a batch this size takes 15–30 ms there (1,000: 30–80 ms; 5,000: 200–350).
 */
const RECIPIENT_BATCH = 500;

type ParsedRecipient = BackupFile['campaigns'][number]['recipients'][number];

/** The account's contact of each number a restore has met (null: the account has none). */
type ContactIds = Map<string, string | null>;

/** The upload a backup's `upload:<id>` names (its stricter reading), or null. */
const uploadOf = (ref: string) => uploadIdOf(ref, { uuidOnly: true });

/**
 * A restored campaign is never sent again. Drafts stay drafts; a scheduled one becomes a draft (its
 * time would otherwise start it); one that was going out or paused is restored cancelled; finished
 * ones keep their status. Recipient lines not yet sent become skipped with the reason.
 */
function restoredStatus(status: CampaignStatus): CampaignStatus {
  if (isCampaignStatusIn(CAMPAIGN_NOT_STARTED, status)) return 'draft';
  if (isCampaignStatusIn(CAMPAIGN_FINISHED, status)) return status;
  return 'cancelled';
}

/** A contact's number as recipient lines write it (digits, or with the +) and as contacts store it. */
const contactPhone = (recipient: string) => (recipient.startsWith('+') ? recipient : `+${recipient}`);

/** Adds to `ids` the account's contact of each of these numbers it has not met yet. */
async function lookUpContacts(t: Db, userId: string, phones: string[], ids: ContactIds): Promise<void> {
  const unknown = [...new Set(phones.filter((p) => !ids.has(p)))];
  if (!unknown.length) return;
  for (const p of unknown) ids.set(p, null);
  const rows = rowsOf<{ id: string; phone: string }>(
    await t.execute(
      sql`select id, phone from contacts where ${accountSql(userId)} and phone = any(${sql.param(unknown)}::text[])`,
    ),
  );
  for (const c of rows) ids.set(c.phone, c.id);
}

/**
 * A campaign's report lines, a batch per statement through the bulk loader, with a pause between
 * batches for whatever else waits on the thread. The campaign is new in this transaction, so no
 * other writer can hold one of its lines: only a line the file repeats is left out (the first one
 * is kept). Each statement's rollups are computed once for all its rows (migration 0009).
 */
async function restoreRecipients(
  t: Db,
  userId: string,
  campaignId: string,
  lines: ParsedRecipient[],
  contactIds: ContactIds,
  now: string,
  turns: RestorePace,
): Promise<number> {
  const seen = new Set<string>();
  let inserted = 0;
  for (let i = 0; i < lines.length; i += RECIPIENT_BATCH) {
    const batch = lines.slice(i, i + RECIPIENT_BATCH).filter((r) => !seen.has(r.recipient) && seen.add(r.recipient));
    const phones = batch.filter((r) => r.kind === 'contact').map((r) => contactPhone(r.recipient));
    await lookUpContacts(t, userId, phones, contactIds);
    const rows: RestoredRecipient[] = batch.map((r) => ({
      contactId: r.kind === 'contact' ? (contactIds.get(contactPhone(r.recipient)) ?? null) : null,
      recipient: r.recipient,
      kind: r.kind,
      name: r.name,
      email: r.email,
      status: r.status,
      error: r.error,
      attempts: r.attempts,
      queuedAt: r.queuedAt ?? now,
      sentAt: r.sentAt,
      deliveredAt: r.deliveredAt,
      readAt: r.readAt,
      failedAt: r.failedAt,
    }));
    inserted += await restoreRecipientRows(t, { id: campaignId, userId }, rows, backupMsg.recipientNotSent);
    await turns.pause();
  }
  return inserted;
}

/**
 * Campaigns by name and creation date (ids are not carried: another account may hold the same id),
 * each with its recipient lines, which point at the account's contact with the same number (the
 * caller restores contacts first). An http(s) image link stays a link; `restoreImage` answers the
 * account's upload for an `upload:<id>` image, or null when it could not come back (the caller
 * reports why): the campaign is then restored without it. Answers the counts and the number of
 * recipient lines written.
 */
export async function restoreCampaigns(
  t: Db,
  userId: string,
  list: BackupFile['campaigns'],
  restoreImage: (uploadId: string, name: string) => Promise<{ id: string } | null>,
  contactIds: ContactIds,
  now: string,
  turns: RestorePace,
  /** Same as `restoreImage`, for the file the campaign sends (`mediaUrl`): without it, an upload reference is dropped. */
  restoreFile?: (uploadId: string, name: string) => Promise<{ id: string } | null>,
): Promise<{ counts: RestoreCounts; recipients: number }> {
  const counts = zeroCounts();
  const key = (name: string, createdAt: Date) => JSON.stringify([name, createdAt.toISOString()]);
  const own = multiset(
    (
      await t
        .select({ name: campaigns.name, createdAt: campaigns.createdAt })
        .from(campaigns)
        .where(ofAccount(campaigns, userId))
    ).map((c) => key(c.name, c.createdAt)),
  );
  let recipients = 0;
  for (const c of list) {
    if (takeFrom(own, key(c.name, new Date(c.createdAt)))) {
      counts.unchanged++;
      continue;
    }
    const status = restoredStatus(c.status);
    let imageUrl = c.imageUrl;
    const upload = c.imageUrl ? uploadOf(c.imageUrl) : undefined;
    if (upload) {
      const image = await restoreImage(upload, c.name);
      imageUrl = image ? `${UPLOAD_REF_PREFIX}${image.id}` : null;
    }
    let mediaUrl = c.mediaUrl;
    const media = c.mediaUrl ? uploadOf(c.mediaUrl) : undefined;
    if (media) {
      const file = restoreFile ? await restoreFile(media, c.name) : null;
      mediaUrl = file ? `${UPLOAD_REF_PREFIX}${file.id}` : null;
    }
    const [row] = await t
      .insert(campaigns)
      .values({
        userId,
        name: c.name,
        message: c.message,
        status,
        targetType: c.targetType,
        targetGroups: c.targetGroups,
        targetTags: c.targetTags,
        imageUrl,
        mediaUrl,
        location: c.location ?? null,
        contactCard: c.contactCard ?? null,
        templateName: c.templateName,
        templateLanguage: c.templateLanguage,
        templateVariables: c.templateVariables,
        scheduledAt: status !== 'draft' && c.scheduledAt ? new Date(c.scheduledAt) : null,
        pauseReason: c.pauseReason,
        createdAt: new Date(c.createdAt),
        startedAt: c.startedAt ? new Date(c.startedAt) : null,
        finishedAt: c.finishedAt ? new Date(c.finishedAt) : status === 'cancelled' ? new Date() : null,
      })
      .returning({ id: campaigns.id });
    counts.added++;
    recipients += await restoreRecipients(t, userId, row.id, c.recipients, contactIds, now, turns);
  }
  return { counts, recipients };
}
