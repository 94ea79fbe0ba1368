import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** What an account-wide lock guards; each purpose is its own lock, so unrelated writes never wait on each other. */
export type AccountLockPurpose = 'connections' | 'contacts' | 'uploads' | 'team' | 'quickReplies' | 'queues';

/**
 * Holds, until the transaction ends, the account's lock for one purpose: the count-then-insert of a
 * plan limit (numbers, contacts, image room) and "one default" become one step for every request of
 * every process. A transaction-scoped advisory lock, so no row is locked and nothing is left behind
 * on a crash; on the embedded database (one connection) it is taken at once. Call it first in the
 * transaction, before the count.
 */
export async function lockAccount(tx: Db, userId: string, purpose: AccountLockPurpose): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${purpose}), hashtext(${userId}))`);
}
