import { desc, eq, sql } from 'drizzle-orm';
import type { Campaign } from '../../../contract/campaigns';
import type { Db } from '../../db/client';
import { campaignRecipients, campaigns } from '../../db/schema';

/** Campaigns of one account, newest first, with counters computed from their recipient rows. */
export async function listCampaigns(db: Db, userId: string): Promise<Campaign[]> {
  const rows = await db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      message: campaigns.message,
      status: campaigns.status,
      targetType: campaigns.targetType,
      targetGroups: campaigns.targetGroups,
      createdAt: campaigns.createdAt,
      messagesSent: sql<number>`count(${campaignRecipients.id}) filter (where ${campaignRecipients.status} in ('sent','delivered','read'))::int`,
      messagesDelivered: sql<number>`count(${campaignRecipients.id}) filter (where ${campaignRecipients.status} in ('delivered','read'))::int`,
    })
    .from(campaigns)
    .leftJoin(campaignRecipients, eq(campaignRecipients.campaignId, campaigns.id))
    .where(eq(campaigns.userId, userId))
    .groupBy(campaigns.id)
    .orderBy(desc(campaigns.createdAt));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
