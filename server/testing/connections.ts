import type { Db } from '../db/client';
import { connections } from '../db/schema';

/** Adds one of an account's numbers straight into the database (tests that seed rows). */
export async function insertConnection(
  db: Db,
  userId: string,
  kind: 'personal' | 'cloud',
  values: Partial<typeof connections.$inferInsert> = {},
): Promise<typeof connections.$inferSelect> {
  const [row] = await db
    .insert(connections)
    .values({
      userId,
      kind,
      label: kind === 'personal' ? 'WhatsApp pessoal' : 'API oficial',
      isDefault: true,
      ...values,
    })
    .returning();
  return row;
}
