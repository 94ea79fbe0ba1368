import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignNumbers, CampaignRecipient } from '../../contract/campaigns';
import type { ConnectionDetail, ConnectionView } from '../../contract/connections';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../contract/constants';
import { rowsOf } from '../db/rows';
import { campaignRecipients, contacts } from '../db/schema';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { sendingSettings } from '../testing/sending-settings';
import {
  type ApiMethod,
  apiCall,
  createTestApp,
  createUser,
  loginAs,
  type TestContext,
  waitFor,
} from '../testing/test-app';

/**
 * A campaign over several numbers: the recipients shared by the numbers' capacity, each once; a
 * number that WhatsApp restricts or that disconnects stops taking recipients and the others send
 * the rest; a contact talking with one of the numbers gets the campaign from it.
 */
let ctx: TestContext;
let graph: FakeGraphApi;
let seq = 0;
/** Sends each phone number id answered, and from which send on it answers 131048. */
const sentBy = new Map<string, number>();
const restrictAfter = new Map<string, number>();

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.sendFault = ({ phoneNumberId }) => {
    const n = (sentBy.get(phoneNumberId) ?? 0) + 1;
    const limit = restrictAfter.get(phoneNumberId);
    if (limit !== undefined && n > limit) {
      return { kind: 'status', status: 400, code: 131048, message: 'Spam rate limit hit' };
    }
    sentBy.set(phoneNumberId, n);
    return null;
  };
  ctx = await createTestApp(
    {
      WHATSAPP_DRIVER: 'simulator',
      GRAPH_API_URL: graph.url,
      GRAPH_API_VERSION: 'v26.0',
      WHATSAPP_CLOUD_THROUGHPUT: '160',
    },
    undefined,
    {
      simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
      dispatcher: { tickMs: 20, timeScale: 0.002 },
    },
  );
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

const req = (method: ApiMethod, url: string, cookie: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

async function customer() {
  const user = await createUser(ctx, { planType: 'premium' });
  const cookie = await loginAs(ctx, user);
  return { user, cookie };
}

async function cloudNumber(cookie: string, label: string) {
  const n = ++seq;
  const phoneNumberId = `40${n}0000000${n}`;
  const accessToken = `EAAG-many-${n}`;
  graph.addPhone(phoneNumberId, accessToken, `55114100${String(n).padStart(4, '0')}`, label);
  const res = await req('POST', '/api/connections', cookie, { kind: 'cloud', label, accessToken, phoneNumberId });
  expect(res.statusCode, res.body).toBe(201);
  return { ...(res.json().connection as ConnectionView), phoneNumberId };
}

async function addContacts(userId: string, count: number, first: number) {
  // Ending in 1: numbers the simulator knows on WhatsApp.
  const phones = Array.from({ length: count }, (_, i) => `5521${String(first + i).padStart(8, '0')}1`);
  await ctx.database.db
    .insert(contacts)
    .values(phones.map((p, i) => ({ userId, name: `Cliente ${i}`, phone: `+${p}` })));
  return phones;
}

async function start(cookie: string, connectionIds: string[]) {
  const settings = await req('PUT', '/api/settings/whatsapp', cookie, {
    ...sendingSettings('cloud'),
    channel: undefined,
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const created = await req('POST', '/api/campaigns', cookie, {
    name: `Vários números ${++seq}`,
    message: 'Oi {{nome}}',
    targetType: 'all',
    connectionIds,
  });
  expect(created.statusCode, created.body).toBe(200);
  expect(created.json().connectionIds).toEqual(connectionIds);
  const id = created.json().id as string;
  const sent = await req('POST', `/api/campaigns/${id}/send`, cookie);
  expect(sent.statusCode, sent.body).toBe(200);
  return id;
}

const rowsOfCampaign = (id: string) =>
  ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));

const finished = (cookie: string, id: string, ms = 30_000) =>
  waitFor(
    async () => (await req('GET', `/api/campaigns/${id}`, cookie)).json(),
    (c) => c.status === 'completed',
    ms,
  );

describe('two Cloud numbers', () => {
  it('share 1,000 recipients by capacity, each sent once, and the report says which number sent what', async () => {
    const { user, cookie } = await customer();
    const a = await cloudNumber(cookie, 'Vendas');
    const b = await cloudNumber(cookie, 'Pós-venda');
    const phones = await addContacts(user.id, 1000, 90_000_000);
    const id = await start(cookie, [a.id, b.id]);
    const done = await finished(cookie, id);
    expect(done.progress).toMatchObject({ total: 1000, queued: 0, sending: 0, failed: 0 });

    const rows = await rowsOfCampaign(id);
    expect(rows.filter((r) => r.sentAt !== null)).toHaveLength(1000);
    const fromA = rows.filter((r) => r.connectionId === a.id).length;
    const fromB = rows.filter((r) => r.connectionId === b.id).length;
    expect(fromA + fromB).toBe(1000);
    expect(fromA).toBeGreaterThanOrEqual(400);
    expect(fromA).toBeLessThanOrEqual(600);
    // What Meta received agrees: each recipient once, each number its share.
    const mine = graph.sent.filter((m) => phones.includes(m.to as string));
    expect(mine).toHaveLength(1000);
    expect(new Set(mine.map((m) => m.to)).size).toBe(1000);
    expect(sentBy.get(a.phoneNumberId)).toBe(fromA);
    expect(sentBy.get(b.phoneNumberId)).toBe(fromB);

    const report = (await req('GET', `/api/campaigns/${id}/numbers`, cookie)).json() as CampaignNumbers;
    expect(report.unassigned).toBe(0);
    expect(report.numbers.map((n) => [n.label, n.sent, n.failed, n.queued, n.removed])).toEqual([
      ['Vendas', fromA, 0, 0, false],
      ['Pós-venda', fromB, 0, 0, false],
    ]);
    const page = (await req('GET', `/api/campaigns/${id}/recipients?limit=5`, cookie)).json() as {
      items: CampaignRecipient[];
    };
    for (const item of page.items) {
      expect([a.id, b.id]).toContain(item.connectionId);
      expect(item.sentFrom).toMatch(/^(Vendas|Pós-venda) \(\+5511\d+\)$/);
    }
    const csv = await req('GET', `/api/campaigns/${id}/recipients/export?format=csv`, cookie);
    expect(csv.body.split('\n')[0]).toContain('Número');
    expect(csv.body).toContain('Pós-venda (+5511');
    // Today's sends per number on the "Números" page.
    const numbers = (await req('GET', '/api/connections', cookie)).json().connections as ConnectionView[];
    expect(numbers.map((n) => n.sentToday)).toEqual([fromA, fromB]);
  });

  it('a number WhatsApp restricts (131048) after 100 sends stops; the other sends the rest, none missing or twice', async () => {
    const { user, cookie } = await customer();
    const a = await cloudNumber(cookie, 'Restrito');
    const b = await cloudNumber(cookie, 'Reserva');
    // "Alertas do sistema" on: a number that stops is told to its owner.
    const alerts = await req('PUT', '/api/settings/notifications', cookie, {
      ...DEFAULT_NOTIFICATION_SETTINGS,
      systemAlerts: true,
    });
    expect(alerts.statusCode).toBe(200);
    restrictAfter.set(a.phoneNumberId, 100);
    const phones = await addContacts(user.id, 1000, 91_000_000);
    const id = await start(cookie, [a.id, b.id]);
    const done = await finished(cookie, id);
    // The campaign was not paused: it went on through the other number.
    expect(done.pauseReason ?? null).toBeNull();
    expect(done.progress).toMatchObject({ total: 1000, queued: 0, sending: 0, failed: 0 });
    const rows = await rowsOfCampaign(id);
    expect(rows.filter((r) => r.sentAt !== null)).toHaveLength(1000);
    expect(rows.filter((r) => r.connectionId === a.id)).toHaveLength(100);
    expect(rows.filter((r) => r.connectionId === b.id)).toHaveLength(900);
    const mine = graph.sent.filter((m) => phones.includes(m.to as string));
    expect(new Set(mine.map((m) => m.to)).size).toBe(1000);
    expect(mine).toHaveLength(1000);

    // The page and the report say which number stopped and why; its owner was told.
    const view = (await req('GET', `/api/connections/${a.id}`, cookie)).json() as ConnectionDetail;
    expect(view).toMatchObject({
      status: 'restricted',
      stopReason: 'restricted',
      health: { level: 'restricted', restriction: { code: '131048' } },
    });
    const report = (await req('GET', `/api/campaigns/${id}/numbers`, cookie)).json() as CampaignNumbers;
    expect(report.numbers.find((n) => n.connectionId === a.id)?.stopReason).toBe('restricted');
    const notices = (await req('GET', '/api/notifications?limit=100', cookie)).json().notifications as Array<{
      title: string;
      body: string;
    }>;
    expect(notices.some((n) => n.title === 'Número parou de enviar' && n.body.includes('Restrito'))).toBe(true);
  });

  it('a contact talking with one of the numbers gets the campaign from it', async () => {
    const { user, cookie } = await customer();
    const a = await cloudNumber(cookie, 'Loja');
    const b = await cloudNumber(cookie, 'Suporte');
    const phones = await addContacts(user.id, 40, 92_000_000);
    const withB = phones.slice(0, 5);
    const withA = phones.slice(5, 8);
    for (const [phone, number] of [...withB.map((p) => [p, b.id]), ...withA.map((p) => [p, a.id])]) {
      await ctx.database.db.execute(
        sql`insert into conversations (user_id, phone, connection_id) values (${user.id}, ${phone}, ${number})`,
      );
    }
    // One conversation per number: a contact talking with both gets it from the latest (B, then A).
    const [both, bothLatestB] = phones.slice(8, 10);
    for (const [phone, first, second] of [
      [both, b.id, a.id],
      [bothLatestB, a.id, b.id],
    ]) {
      await ctx.database.db.execute(sql`
        insert into conversations (user_id, phone, connection_id, last_message_at)
        values (${user.id}, ${phone}, ${first}, now() - interval '1 hour'), (${user.id}, ${phone}, ${second}, now())`);
    }
    const id = await start(cookie, [a.id, b.id]);
    await finished(cookie, id);
    const rows = await rowsOfCampaign(id);
    for (const p of withB) expect(rows.find((r) => r.recipient === p)?.connectionId, p).toBe(b.id);
    for (const p of withA) expect(rows.find((r) => r.recipient === p)?.connectionId, p).toBe(a.id);
    expect(rows.find((r) => r.recipient === both)?.connectionId).toBe(a.id);
    expect(rows.find((r) => r.recipient === bothLatestB)?.connectionId).toBe(b.id);
    expect(rows.filter((r) => r.sentAt !== null)).toHaveLength(40);
  });

  it('refuses another account’s number in connectionIds as it refuses an unknown one', async () => {
    const owner = await customer();
    const theirs = await cloudNumber(owner.cookie, 'Deles');
    const { cookie } = await customer();
    for (const ids of [[theirs.id], ['00000000-0000-4000-8000-000000000000']]) {
      const res = await req('POST', '/api/campaigns', cookie, { name: 'X', message: 'Oi', connectionIds: ids });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Número de WhatsApp não encontrado: escolha entre os números da sua conta.');
    }
  });
});

describe('three personal numbers (simulator)', () => {
  it('one disconnected mid-campaign: the campaign finishes on the other two', async () => {
    const { user, cookie } = await customer();
    const ids: string[] = [];
    for (const label of ['Chip 1', 'Chip 2', 'Chip 3']) {
      const res = await req('POST', '/api/connections', cookie, { kind: 'personal', label });
      const id = res.json().connection.id as string;
      expect((await req('POST', `/api/connections/${id}/connect`, cookie)).statusCode).toBe(200);
      await waitFor(
        async () => (await req('GET', `/api/connections/${id}`, cookie)).json() as ConnectionDetail,
        (c) => c.status === 'connected' && c.phoneNumber !== null,
      );
      ids.push(id);
    }
    await addContacts(user.id, 90, 93_000_000);
    const settings = await req('PUT', '/api/settings/whatsapp', cookie, sendingSettings('personal'));
    expect(settings.statusCode).toBe(200);
    const created = await req('POST', '/api/campaigns', cookie, {
      name: 'Chips',
      message: 'Oi {{nome}}',
      targetType: 'all',
      connectionIds: ids,
    });
    const id = created.json().id as string;
    expect((await req('POST', `/api/campaigns/${id}/send`, cookie)).statusCode).toBe(200);
    const byNumber = async () =>
      rowsOf<{ id: string; n: number }>(
        await ctx.database.db.execute(sql`
          select connection_id as id, count(*)::int as n from campaign_recipients
          where campaign_id = ${id} and sent_at is not null group by connection_id`),
      );
    await waitFor(
      byNumber,
      (r) => r.find((x) => x.id === ids[2])?.n !== undefined && r.reduce((s, x) => s + x.n, 0) >= 15,
    );
    expect((await req('POST', `/api/connections/${ids[2]}/disconnect`, cookie)).statusCode).toBe(200);
    const atDisconnect = (await byNumber()).find((x) => x.id === ids[2])?.n ?? 0;
    const done = await finished(cookie, id);
    expect(done.progress).toMatchObject({ total: 90, queued: 0, sending: 0, failed: 0 });
    const after = await byNumber();
    expect(after.reduce((s, x) => s + x.n, 0)).toBe(90);
    // The disconnected number sent nothing more (at most the one in flight when it went).
    expect(after.find((x) => x.id === ids[2])?.n ?? 0).toBeLessThanOrEqual(atDisconnect + 1);
    expect(after.find((x) => x.id === ids[0])?.n).toBeGreaterThan(0);
    expect(after.find((x) => x.id === ids[1])?.n).toBeGreaterThan(0);
    const outbox = (await req('GET', '/api/whatsapp/simulator/outbox', cookie)).json().messages as Array<{
      to: string;
    }>;
    // The two numbers still connected sent the rest, each recipient once (the third's outbox left with it).
    const third = after.find((x) => x.id === ids[2])?.n ?? 0;
    expect(outbox).toHaveLength(90 - third);
    expect(new Set(outbox.map((m) => m.to)).size).toBe(90 - third);
  });
});
