import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Campaign } from '../../contract/campaigns';
import type { Db } from '../db/client';
import { campaignRecipients, campaigns } from '../db/schema';
import { apiCall, type TestContext, waitFor } from './test-app';

/** A POST as the signed-in browser makes it (a JSON body when `payload` is given). */
export function postAs(
  ctx: TestContext,
  cookie: string,
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return apiCall(ctx, 'POST', url, { cookie, payload });
}

/**
 * Creates a campaign and starts it, as the dialog does ('Promo', 'Oi {{primeiro_nome}}!', to all the
 * account's contacts, unless `body` says otherwise); answers its id.
 */
export async function createAndSendCampaign(ctx: TestContext, cookie: string, body: object = {}): Promise<string> {
  const res = await postAs(ctx, cookie, '/api/campaigns', {
    name: 'Promo',
    message: 'Oi {{primeiro_nome}}!',
    targetType: 'contacts',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as string;
  const sent = await postAs(ctx, cookie, `/api/campaigns/${id}/send`);
  expect(sent.statusCode, sent.body).toBe(200);
  return id;
}

/** The campaign as `GET /api/campaigns/:id` answers it. */
export async function getCampaign(ctx: TestContext, cookie: string, id: string): Promise<Campaign> {
  return (await apiCall(ctx, 'GET', `/api/campaigns/${id}`, { cookie })).json();
}

/** The campaign read again until `ok` accepts it (at most `ms`); answers it. */
export function waitForCampaign(
  ctx: TestContext,
  cookie: string,
  id: string,
  ok: (c: Campaign) => boolean,
  ms = 8000,
): Promise<Campaign> {
  return waitFor(() => getCampaign(ctx, cookie, id), ok, ms);
}

/**
 * A campaign written straight into the database with its recipients (tests that seed rows): each
 * recipient belongs to the campaign and its account. Answers the campaign's row.
 */
export async function insertCampaign(
  db: Db,
  campaign: typeof campaigns.$inferInsert,
  recipients: Array<Omit<typeof campaignRecipients.$inferInsert, 'campaignId' | 'userId'>> = [],
): Promise<typeof campaigns.$inferSelect> {
  const [row] = await db.insert(campaigns).values(campaign).returning();
  const { userId } = campaign;
  if (recipients.length)
    await db.insert(campaignRecipients).values(recipients.map((r) => ({ campaignId: row.id, userId, ...r })));
  return row;
}
