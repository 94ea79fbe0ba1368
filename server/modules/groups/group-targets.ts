import { eq, inArray, sql } from 'drizzle-orm';
import { groupsMsg } from '../../../contract/contacts';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { groups } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * Refuses a campaign aimed at groups of the account that are not linked to a WhatsApp group (no
 * WhatsApp id): nothing could be sent to them, and the planner would only mark them 'Ignorada'.
 * The pt-BR reason names them, in the order given, and is also the `targetGroups` field's error.
 */
export async function assertGroupTargetsLinked(db: Db, userId: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const unlinked = await db
    .select({ name: groups.name })
    .from(groups)
    .where(
      ofAccount(
        groups,
        userId,
        eq(groups.whatsappGroupId, ''),
        inArray(
          sql`lower(${groups.name})`,
          names.map((n) => n.toLowerCase()),
        ),
      ),
    );
  if (unlinked.length === 0) return;
  const byLower = new Map(unlinked.map((g) => [g.name.toLowerCase(), g.name]));
  const named = names.flatMap((n) => byLower.get(n.toLowerCase()) ?? []);
  const message = groupsMsg.notLinkedTarget([...new Set(named)]);
  throw new AppError('VALIDATION', message, { targetGroups: message });
}
