import { desc, gt } from 'drizzle-orm';
import { planLabel } from '../../../contract/plans';
import { RECENT_ACTIVATIONS_DAYS, type RecentActivations } from '../../../contract/settings';
import { acrossAccounts } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { planActivations } from '../../db/schema';

/** The latest real plan activations: only the plan and when, never who. */
export async function listRecentActivations(db: Db, limit = 20): Promise<RecentActivations> {
  const since = new Date(Date.now() - RECENT_ACTIVATIONS_DAYS * 86_400_000);
  const rows = await db
    .select({ planType: planActivations.planType, createdAt: planActivations.createdAt })
    // Every account's activations: the public feed names no account.
    .from(acrossAccounts(planActivations))
    .where(gt(planActivations.createdAt, since))
    .orderBy(desc(planActivations.createdAt))
    .limit(limit);
  return {
    activations: rows.map((r) => ({ planLabel: planLabel(r.planType), activatedAt: r.createdAt.toISOString() })),
  };
}
