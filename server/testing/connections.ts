import type { ConnectionDetail, ConnectionView } from '../../contract/connections';
import type { Db } from '../db/client';
import { connections } from '../db/schema';
import { apiCall, type TestContext, waitFor } from './test-app';

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

/** Adds a personal number through `POST /api/connections`, as the Números page does. */
export async function addPersonalNumber(ctx: TestContext, cookie: string, label: string): Promise<ConnectionView> {
  const res = await apiCall(ctx, 'POST', '/api/connections', { cookie, payload: { kind: 'personal', label } });
  if (res.statusCode !== 201) throw new Error(`adding ${label}: ${res.statusCode} ${res.body}`);
  return res.json().connection;
}

/** Pairs a personal number (the simulator's QR) and waits until it is connected with its phone number known. */
export async function pairNumber(ctx: TestContext, cookie: string, id: string): Promise<ConnectionDetail> {
  const res = await apiCall(ctx, 'POST', `/api/connections/${id}/connect`, { cookie });
  if (res.statusCode !== 200) throw new Error(`connecting ${id}: ${res.statusCode} ${res.body}`);
  return waitFor(
    async () => (await apiCall(ctx, 'GET', `/api/connections/${id}`, { cookie })).json() as ConnectionDetail,
    (c) => c.status === 'connected' && c.phoneNumber !== null,
  );
}
