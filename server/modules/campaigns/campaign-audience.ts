import type { AudienceSummary } from '../../../contract/campaigns';
import { contactLimitFor } from '../../../contract/plans';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { type AudienceSelection, countAudience } from '../../sending/planner';

/**
 * Who a campaign with this audience would go to if it started now, counted by the planner's own
 * rule (server/sending/planner.ts), for the campaign dialog's 'N destinatários' before saving.
 */
export async function audienceSummary(
  db: Db,
  account: Pick<UserRow, 'id' | 'planType'>,
  audience: Omit<AudienceSelection, 'userId'>,
): Promise<AudienceSummary> {
  const count = await countAudience(
    db,
    {
      userId: account.id,
      targetType: audience.targetType,
      targetGroups: [...new Set(audience.targetGroups.filter(Boolean))],
      targetTags: [...new Set(audience.targetTags.filter(Boolean))],
    },
    contactLimitFor(account.planType),
  );
  return {
    total: count.total,
    recipients: count.queued,
    contacts: count.contacts,
    groups: count.groups,
    skipped: count.skipped,
    skippedReasons: count.skippedReasons,
  };
}
