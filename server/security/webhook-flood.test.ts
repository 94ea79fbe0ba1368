import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApiMsg } from '../../contract/cloud-api';
import { campaignRecipients } from '../db/schema';
import { insertCampaign } from '../testing/campaigns';
import { cloudWebhookBody } from '../testing/cloud-account';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { apiFetch, listen } from '../testing/raw-http';
import { createTestApp, newCustomer, type TestContext } from '../testing/test-app';
import { signBody, WEBHOOK_EVENTS_MAX } from '../whatsapp/cloud-api/webhook';

/**
 * An account chooses its own app secret, so it can sign any webhook it likes: one delivery of
 * thousands of statuses, or ids of any length, must cost the server a bounded amount of work and
 * memory, over a real socket.
 */
let ctx: TestContext;
let graph: FakeGraphApi;
let base: string;
let account: { id: string; webhookPath: string; phoneNumberId: string };

const SECRET = 'segredo-do-app';

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  ctx = await createTestApp({ GRAPH_API_URL: graph.url, GRAPH_API_VERSION: 'v26.0' });
  base = `http://127.0.0.1:${await listen(ctx)}`;
  const customer = await newCustomer(ctx);
  const phoneNumberId = '1088000000001';
  graph.addPhone(phoneNumberId, 'EAAG-flood-token', '551130008888', 'Loja', { businessAccountId: '2088' });
  const configured = await apiFetch(base, customer.cookie, 'POST', '/api/whatsapp-business/configure', {
    accessToken: 'EAAG-flood-token',
    phoneNumberId,
    businessAccountId: '2088',
    appSecret: SECRET,
  });
  expect(configured.status, configured.text).toBe(200);
  account = { id: customer.user.id, webhookPath: configured.body.config.webhookPath, phoneNumberId };
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

function statuses(ids: string[], status = 'delivered', compact = false): string {
  return cloudWebhookBody('2088', {
    messaging_product: 'whatsapp',
    metadata: { phone_number_id: account.phoneNumberId },
    statuses: ids.map((id) =>
      compact ? { id, status } : { id, status, timestamp: '1764100000', recipient_id: '5511987650001' },
    ),
  });
}

const post = async (body: string) => {
  const res = await fetch(`${base}${account.webhookPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
    body,
  });
  return { status: res.status, body: await res.json() };
};

describe('a signed webhook of statuses', () => {
  it('refuses more entries than Meta ever sends in one delivery, before any work on them', async () => {
    // The probe's shape: the smallest statuses, 20,000 of them within the 1 MB body limit.
    const ids = Array.from({ length: 20_000 }, (_, i) => `w${i}`);
    const body = statuses(ids, 'read', true);
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(cloudApiMsg.webhookTooManyEvents);
    expect(ctx.app.deps.cloudApi.recentEventKeyMemory.keys).toBe(0);
  });

  it('records a delivery at the limit with a few batched statements, not two per unknown id', async () => {
    const db = ctx.database.db;
    // A few known ones among the unknown: they move, the rest are looked up together.
    const campaign = await insertCampaign(
      db,
      { userId: account.id, name: 'Lote', message: 'Oi', status: 'completed' },
      Array.from({ length: 10 }, (_, i) => ({
        recipient: `55119876500${String(i).padStart(2, '0')}`,
        status: 'sent' as const,
        providerMessageId: `wamid.known${i}`,
      })),
    );
    let statements = 0;
    const execute = db.execute.bind(db);
    db.execute = ((query: Parameters<typeof execute>[0]) => {
      statements++;
      return execute(query);
    }) as typeof db.execute;
    try {
      const ids = Array.from({ length: WEBHOOK_EVENTS_MAX }, (_, i) =>
        i < 10 ? `wamid.known${i}` : `wamid.unknown${i}`,
      );
      const res = await post(statuses(ids));
      expect(res.status).toBe(200);
      expect(res.body.applied).toBe(WEBHOOK_EVENTS_MAX);
      await ctx.app.deps.cloudApi.settled();
      await ctx.app.deps.connections.receiptsSettled();
    } finally {
      db.execute = execute;
    }
    // Two batches of 500: per batch one update and one look-up for the campaign rows, one update
    // for the conversations; plus the event keys. Per receipt it was two statements, 2,000 here.
    expect(statements).toBeLessThan(20);
    const rows = await db.select().from(campaignRecipients);
    expect(rows.filter((r) => r.campaignId === campaign.id).every((r) => r.status === 'delivered')).toBe(true);
  });

  it('skips ids longer than Meta’s, so they cannot grow the memory of recent events', async () => {
    const before = ctx.app.deps.cloudApi.recentEventKeyMemory;
    for (let n = 0; n < 5; n++) {
      const ids = Array.from(
        { length: 8 },
        (_, i) => `wamid.${String(n * 8 + i).padStart(6, '0')}${'x'.repeat(100_000)}`,
      );
      const res = await post(statuses(ids));
      expect(res.status).toBe(200);
      expect(res.body.applied).toBe(0);
    }
    expect(ctx.app.deps.cloudApi.recentEventKeyMemory).toEqual(before);
    // An id of Meta's size is taken, and its memory counted in bytes.
    const res = await post(statuses([`wamid.${'A'.repeat(200)}`]));
    expect(res.body.applied).toBe(1);
    const after = ctx.app.deps.cloudApi.recentEventKeyMemory;
    expect(after.keys).toBe(before.keys + 1);
    expect(after.bytes - before.bytes).toBeGreaterThan(400);
  });
});
