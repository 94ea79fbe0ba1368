import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignMsg } from '../../contract/campaigns';
import { rowsOf } from '../db/rows';
import { campaignRecipients, contacts, conversationMessages, whatsappInboundMessages } from '../db/schema';
import { BURST_FAILURES, BURST_WINDOW, MAX_ATTEMPTS } from '../sending/dispatcher';
import { cloudWebhookBody } from '../testing/cloud-account';
import { FakeGraphApi, type FakeSend, type GraphFault } from '../testing/fake-graph-api';
import { type ApiAnswer, apiFetch, listen, readCampaign, startCampaign, untilCampaign } from '../testing/raw-http';
import {
  createTestApp,
  newCustomer,
  setAccountSettings,
  type TestContext,
  waitFor,
  whenStatusesSettle,
} from '../testing/test-app';
import { signBody } from '../whatsapp/cloud-api/webhook';

/**
 * The Cloud API under faults, end to end over real HTTP: the fake Graph API answers 429 (with and
 * without Retry-After), 500 and 503, never answers, drops the connection before or after it sent
 * the message; Meta's webhooks arrive repeated, out of order and ahead of the send's own answer.
 * Campaigns end in the right state, each recipient sent once or failed with a reason, and every
 * counter agrees with the rows.
 */
const SCALE = 0.001;
const APP_SECRET = 'segredo-do-app-falhas';
let ctx: TestContext;
let graph: FakeGraphApi;
let base: string;
/** The faults of each test's number, by phone number id. */
const scripts = new Map<string, (send: FakeSend) => GraphFault | null>();

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.sendFault = (send) => scripts.get(send.phoneNumberId)?.(send) ?? null;
  ctx = await createTestApp({ GRAPH_API_URL: graph.url, GRAPH_API_VERSION: 'v26.0' }, undefined, {
    dispatcher: { tickMs: 20, timeScale: SCALE },
  });
  base = `http://127.0.0.1:${await listen(ctx)}`;
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

const http = (cookie: string, method: string, path: string, body?: unknown) =>
  apiFetch(base, cookie, method, path, body);

let numbers = 0;

/** A customer sending through its own Cloud API number (webhooks signed with APP_SECRET), any hour. */
async function cloudAccount(script: (send: FakeSend) => GraphFault | null = () => null) {
  const n = ++numbers;
  const phoneNumberId = `1097${String(n).padStart(11, '0')}`;
  const token = `EAAG-falhas-${n}`;
  graph.addPhone(phoneNumberId, token, `55113100${String(n).padStart(4, '0')}`, `Loja ${n}`);
  scripts.set(phoneNumberId, script);
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false, channel: 'cloud' });
  const configured = await http(cookie, 'POST', '/api/whatsapp-business/configure', {
    accessToken: token,
    phoneNumberId,
    appSecret: APP_SECRET,
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  return { base, user, cookie, phoneNumberId, webhookPath: configured.body.config.webhookPath as string, n };
}

type Account = Awaited<ReturnType<typeof cloudAccount>>;

/** `count` contacts of the account; answers their numbers as the Graph API sees them (digits). */
async function addContacts(a: Account, count: number): Promise<string[]> {
  const phones = Array.from(
    { length: count },
    (_, i) => `5521${String(a.n).padStart(3, '0')}${String(i).padStart(6, '0')}`,
  );
  await ctx.database.db
    .insert(contacts)
    .values(phones.map((p, i) => ({ userId: a.user.id, name: `Cliente ${i}`, phone: `+${p}` })));
  return phones;
}

const rowsOfCampaign = (id: string) =>
  ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));
const sentTo = (to: string) => graph.sent.filter((m) => m.to === to).length;
/** Arrival times of the sends to `to` at the Graph API (faulted ones included). */
const sendTimes = (to: string) =>
  graph.requests.filter((r) => r.path.endsWith('/messages') && r.json?.to === to).map((r) => r.at);

/** The account's rollups (decision 016) equal a recount of its rows. */
async function rollupsMatchRows(userId: string) {
  const snapshot = async () =>
    rowsOf(
      await ctx.database.db.execute(sql`
        select campaign_id, hour::text, sent, delivered, read, failed from stats_campaign_hours
        where user_id = ${userId} and (sent, delivered, read, failed) <> (0, 0, 0, 0) order by 1, 2`),
    );
  const kept = await snapshot();
  await ctx.database.db.execute(sql`select stats_rebuild(${userId}::uuid)`);
  expect(kept).toEqual(await snapshot());
}

/** The campaign's figures, the account's dashboard and the rollups all say what the rows say. */
async function countersMatchRows(a: Account, id: string) {
  const rows = await whenStatusesSettle(ctx, () => rowsOfCampaign(id));
  const count = (...statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).length;
  const c = await readCampaign(a, id);
  expect(c.progress).toMatchObject({
    total: rows.length,
    queued: 0,
    sending: 0,
    sent: count('sent'),
    delivered: count('delivered'),
    read: count('read'),
    failed: count('failed'),
  });
  expect(c.messagesSent).toBe(count('sent', 'delivered', 'read'));
  expect(c.messagesDelivered).toBe(count('delivered', 'read'));
  expect(c.messagesRead).toBe(count('read'));
  const m = (await http(a.cookie, 'GET', '/api/metrics')).body;
  expect(m).toMatchObject({
    messagesSent: count('sent', 'delivered', 'read'),
    delivered: count('delivered', 'read'),
    read: count('read'),
  });
  await rollupsMatchRows(a.user.id);
}

/** A number in [0, 1) fixed by its key: the "random" faults are the same on every run. */
const chance = (key: string) => createHash('sha256').update(`faults-graph:${key}`).digest().readUInt32BE(0) / 2 ** 32;

describe('Graph API answers that are not a success', () => {
  it('429 with and without Retry-After, 500 and 503: retried, the wait Meta asks for honoured, each sent once', async () => {
    const a = await cloudAccount(({ to, attempt }) => {
      const i = Number(to.slice(-1));
      if (i === 0 && attempt === 1)
        return { kind: 'status', status: 429, code: 130429, message: 'Rate limit hit', retryAfter: '300' };
      // A bare 429: no Graph error body code, only the HTTP status.
      if (i === 1 && attempt === 1) return { kind: 'status', status: 429, message: 'Too Many Requests' };
      if (i === 2 && attempt <= 2)
        return { kind: 'status', status: 500, code: 1, message: 'An unknown error occurred' };
      if (i === 3 && attempt === 1)
        return { kind: 'status', status: 503, code: 2, message: 'Service unavailable', retryAfter: '120' };
      if (i === 4) return { kind: 'status', status: 503, code: 2, message: 'Service temporarily unavailable' };
      return null;
    });
    const phones = await addContacts(a, 6);
    const id = await startCampaign(a);
    const done = await untilCampaign(a, id, (c) => c.status === 'completed' || c.status === 'failed');
    expect(done.status).toBe('completed');

    const rows = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r]));
    for (const [i, attempts] of [
      [0, 2],
      [1, 2],
      [2, 3],
      [3, 2],
      [5, 1],
    ] as const) {
      expect(rows.get(phones[i]), phones[i]).toMatchObject({ status: 'sent', attempts, error: null });
      expect(sentTo(phones[i]), phones[i]).toBe(1);
    }
    // Meta never answered the fifth one with a success: it failed after the last attempt, with why.
    const failed = rows.get(phones[4]);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(failed?.error).toContain(campaignMsg.reason.tooManyAttempts);
    expect(failed?.error).toContain('Service temporarily unavailable');
    expect(sentTo(phones[4])).toBe(0);

    // Retry-After is Meta's word on when to come back: 300 s and 120 s (scaled like every wait here),
    // longer than the engine's own back-off for a first failure (30 s ± 20 %, 60 s for 130429).
    const [first0, second0] = sendTimes(phones[0]);
    expect(second0 - first0).toBeGreaterThanOrEqual(300_000 * SCALE * 0.95);
    const [first3, second3] = sendTimes(phones[3]);
    expect(second3 - first3).toBeGreaterThanOrEqual(120_000 * SCALE * 0.95);
    await countersMatchRows(a, id);
  });

  it('a connection reset before Meta took the send, and a request never answered: tried again, sent once', async () => {
    const a = await cloudAccount(({ to, attempt }) => {
      if (attempt > 1) return null;
      if (to.endsWith('0')) return { kind: 'reset' };
      if (to.endsWith('1')) return { kind: 'hang' };
      return null;
    });
    const phones = await addContacts(a, 4);
    const id = await startCampaign(a);
    // The hung request ends at the client's timeout (15 s): the others do not wait for it.
    await waitFor(
      async () => phones.slice(2).map(sentTo),
      (n) => n.every((x) => x === 1),
      5000,
    );
    expect(sentTo(phones[1])).toBe(0);
    const done = await untilCampaign(a, id, (c) => c.status === 'completed', 25_000);
    expect(done.progress).toMatchObject({ total: 4, sent: 4, failed: 0 });
    for (const p of phones) expect(sentTo(p), p).toBe(1);
    const rows = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r.attempts]));
    expect([rows.get(phones[0]), rows.get(phones[1]), rows.get(phones[2])]).toEqual([2, 2, 1]);
    await countersMatchRows(a, id);
  }, 40_000);

  it('a send Meta took whose answer was lost is tried once more (decision 028: in-flight sends go at least once), never more', async () => {
    // The Cloud API has no idempotency key: a send whose answer never came cannot be told apart
    // from one that never arrived. The engine sends it again, as it does for the sends in flight
    // when a process dies; the report keeps one row, with the message id Meta answered.
    const a = await cloudAccount(({ to, attempt }) =>
      to.endsWith('0') && attempt === 1 ? { kind: 'lose-answer' } : null,
    );
    const phones = await addContacts(a, 3);
    const id = await startCampaign(a);
    await untilCampaign(a, id, (c) => c.status === 'completed');
    const rows = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r]));
    const lost = phones[0];
    expect(sentTo(lost)).toBe(2);
    const ids = graph.sentIds.filter((_, i) => graph.sent[i].to === lost);
    expect(rows.get(lost)).toMatchObject({ status: 'sent', attempts: 2, providerMessageId: ids[1] });
    for (const p of phones.slice(1)) expect(sentTo(p), p).toBe(1);
    await countersMatchRows(a, id);
  });

  it('30 recipients under random faults: completed, each recipient sent exactly once or failed with a reason', async () => {
    const kinds: GraphFault[] = [
      { kind: 'status', status: 429, code: 130429, message: 'Rate limit hit', retryAfter: '1' },
      { kind: 'status', status: 429, message: 'Too Many Requests' },
      { kind: 'status', status: 500, code: 1, message: 'An unknown error occurred' },
      { kind: 'status', status: 503, code: 2, message: 'Service temporarily unavailable' },
      { kind: 'reset' },
    ];
    const refused = new Set([7, 19]);
    const down = 23;
    const fault = (i: number, attempt: number): GraphFault | null => {
      if (refused.has(i)) return { kind: 'status', status: 400, code: 131026, message: 'Message undeliverable' };
      if (i === down) return { kind: 'status', status: 503, code: 2, message: 'Service temporarily unavailable' };
      const r = chance(`${i}:${attempt}`);
      return r < 0.3 ? kinds[Math.floor(r * 100) % kinds.length] : null;
    };
    const a = await cloudAccount(({ to, attempt }) => fault(Number(to.slice(-6)), attempt));
    const phones = await addContacts(a, 30);

    // What the faults will do, worked out beforehand: how often each recipient fails, and who never gets through.
    const expected = phones.map((_, i) => {
      if (refused.has(i)) return { status: 'failed', attempts: 1 };
      let attempt = 1;
      while (attempt < MAX_ATTEMPTS && fault(i, attempt)) attempt++;
      return fault(i, attempt) ? { status: 'failed', attempts: MAX_ATTEMPTS } : { status: 'sent', attempts: attempt };
    });
    const failures = expected.reduce((n, e) => n + (e.status === 'failed' ? e.attempts : e.attempts - 1), 0);
    // Few enough failures that the burst guard (20 of the last 50) stays out of it; a random
    // retry appears for at least a few recipients.
    expect(failures).toBeLessThan(BURST_FAILURES);
    expect(expected.filter((e) => e.status === 'sent' && e.attempts > 1).length).toBeGreaterThanOrEqual(5);

    const id = await startCampaign(a);
    const done = await untilCampaign(
      a,
      id,
      (c) => c.status === 'completed' || c.status === 'failed' || c.status === 'paused',
    );
    expect(done.status).toBe('completed');
    const rows = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r]));
    expect(rows.size).toBe(30);
    phones.forEach((p, i) => {
      const row = rows.get(p);
      expect({ status: row?.status, attempts: row?.attempts }, `recipient ${i}`).toEqual(expected[i]);
      expect(graph.attempts.get(p), `recipient ${i}`).toBe(expected[i].attempts);
      if (expected[i].status === 'sent') {
        expect(sentTo(p), `recipient ${i}`).toBe(1);
        expect(row?.providerMessageId).toBe(graph.sentIds[graph.sent.findIndex((m) => m.to === p)]);
      } else {
        expect(sentTo(p), `recipient ${i}`).toBe(0);
        expect(row?.error, `recipient ${i}`).toMatch(/[a-zà-ú]{4}/i);
      }
    });
    expect(rows.get(phones[7])?.error).toMatch(/não tem WhatsApp|não pode receber/);
    expect(rows.get(phones[down])?.error).toContain(campaignMsg.reason.tooManyAttempts);
    await countersMatchRows(a, id);
  });

  it('Meta down for a while: the burst of failures pauses the campaign with the reason, and after resuming each recipient gets one message', async () => {
    let metaDown = true;
    const a = await cloudAccount(() =>
      metaDown ? { kind: 'status', status: 503, code: 2, message: 'Service temporarily unavailable' } : null,
    );
    const phones = await addContacts(a, 25);
    const id = await startCampaign(a);
    const paused = await untilCampaign(a, id, (c) => c.status === 'paused');
    expect(paused.pauseReason).toBe(campaignMsg.pauseReason.burst(BURST_FAILURES, BURST_WINDOW));
    await new Promise((r) => setTimeout(r, 200));
    const rows = await rowsOfCampaign(id);
    // Nothing failed for good and nothing was lost: every recipient waits for the resume.
    expect(rows.filter((r) => r.status === 'queued')).toHaveLength(25);
    expect(graph.sent.filter((m) => phones.includes(m.to as string))).toHaveLength(0);

    metaDown = false;
    expect((await http(a.cookie, 'POST', `/api/campaigns/${id}/resume`)).status).toBe(200);
    const done = await untilCampaign(a, id, (c) => c.status === 'completed');
    expect(done.progress).toMatchObject({ total: 25, sent: 25, failed: 0 });
    for (const p of phones) expect(sentTo(p), p).toBe(1);
    await countersMatchRows(a, id);
  });
});

describe('webhooks repeated, out of order, and early', () => {
  type Status = 'sent' | 'delivered' | 'read' | 'failed';

  function statusesBody(
    phoneNumberId: string,
    statuses: Array<{ id: string; status: Status; to: string }>,
    inbound: Array<{ id: string; from: string; text: string }> = [],
  ) {
    return cloudWebhookBody('WABA', {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '551131000000', phone_number_id: phoneNumberId },
      ...(inbound.length
        ? {
            contacts: inbound.map((m) => ({ wa_id: m.from, profile: { name: 'Ana' } })),
            messages: inbound.map((m) => ({
              from: m.from,
              id: m.id,
              timestamp: String(Math.floor(Date.now() / 1000)),
              type: 'text',
              text: { body: m.text },
            })),
          }
        : {}),
      statuses: statuses.map((s) => ({
        id: s.id,
        status: s.status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: s.to,
        ...(s.status === 'failed' ? { errors: [{ code: 131026, title: 'Message undeliverable' }] } : {}),
      })),
    });
  }

  async function deliver(a: Account, body: string): Promise<ApiAnswer> {
    const res = await fetch(`${base}${a.webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, APP_SECRET) },
      body,
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : null };
  }

  it('statuses repeated 3×, out of order and split over deliveries: each row ends at its furthest status, counted once', async () => {
    const a = await cloudAccount();
    const phones = await addContacts(a, 8);
    const id = await startCampaign(a);
    await untilCampaign(a, id, (c) => c.status === 'completed');
    const wamid = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r.providerMessageId as string]));

    // What Meta sends for each recipient, in the order it arrives, and where each row must end.
    const script: Array<[Status[], Status]> = [
      [['read', 'delivered', 'sent'], 'read'],
      [['delivered', 'delivered', 'delivered', 'sent', 'read', 'read', 'read'], 'read'],
      [['delivered', 'sent'], 'delivered'],
      [['read'], 'read'],
      [['sent', 'sent', 'sent'], 'sent'],
      [['failed', 'delivered'], 'delivered'],
      [['delivered', 'failed', 'sent'], 'delivered'],
      [['failed', 'failed', 'failed'], 'failed'],
    ];
    // Recipients interleaved at random; each one's statuses keep its script's order.
    const turns = script
      .flatMap(([statuses], i) => statuses.map((_, k) => ({ i, key: chance(`w${i}:${k}`) })))
      .sort((x, y) => x.key - y.key);
    const next = script.map(([statuses]) => [...statuses]);
    const interleaved = turns.map(({ i }) => ({
      id: wamid.get(phones[i]) as string,
      to: phones[i],
      status: next[i].shift() as Status,
    }));
    // Deliveries of one to four statuses; each third delivery is sent twice at once.
    let applied = 0;
    for (let i = 0, d = 0; i < interleaved.length; d++) {
      const size = 1 + (d % 4);
      const body = statusesBody(a.phoneNumberId, interleaved.slice(i, i + size));
      i += size;
      const answers = await Promise.all(Array.from({ length: d % 3 === 2 ? 2 : 1 }, () => deliver(a, body)));
      for (const r of answers) {
        expect(r.status).toBe(200);
        applied += r.body.applied;
      }
    }
    // A repeated status is one event: only distinct (message, status) pairs apply.
    expect(applied).toBe(new Set(interleaved.map((e) => `${e.id}:${e.status}`)).size);

    const want = (i: number) => script[i][1];
    await waitFor(
      async () => new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r.status])),
      (st) => phones.every((p, i) => st.get(p) === want(i)),
      8000,
    );
    const rows = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r]));
    phones.forEach((p, i) => {
      const row = rows.get(p);
      const status = want(i);
      expect(row?.sentAt, p).not.toBeNull();
      if (status === 'read') expect(row?.readAt && row.deliveredAt, p).toBeTruthy();
      if (status === 'delivered')
        expect([row?.deliveredAt !== null, row?.readAt, row?.error], p).toEqual([true, null, null]);
      if (status === 'failed') expect(row?.error, p).toContain('131026');
    });
    await countersMatchRows(a, id);
  });

  it('a status that overtakes the answer of its own send still moves the row', async () => {
    let answer!: () => void;
    const late = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const a = await cloudAccount(({ attempt }) => (attempt === 1 ? { kind: 'late-answer', until: late } : null));
    const [phone] = await addContacts(a, 1);
    const id = await startCampaign(a);
    // Meta has the message (and says so by webhook) before its answer reaches the server.
    await waitFor(
      async () => graph.sent.findIndex((m) => m.to === phone),
      (i) => i >= 0,
    );
    const wamid = graph.sentIds[graph.sent.findIndex((m) => m.to === phone)];
    const early = await deliver(a, statusesBody(a.phoneNumberId, [{ id: wamid, to: phone, status: 'delivered' }]));
    expect(early.body).toEqual({ success: true, applied: 1 });
    expect((await rowsOfCampaign(id))[0].status).toBe('sending');
    answer();
    const done = await untilCampaign(
      a,
      id,
      (c) => c.status === 'completed' && (c.progress as { delivered: number }).delivered === 1,
    );
    expect(done.messagesDelivered).toBe(1);
    expect(sentTo(phone)).toBe(1);
    await countersMatchRows(a, id);
  });

  it('an inbound message in several deliveries, and twice in one, is stored once', async () => {
    const a = await cloudAccount();
    const from = '5511987001234';
    const message = { id: 'wamid.INBOUND-REPETIDA-1', from, text: 'Quero saber o preço' };
    const other = { id: 'wamid.INBOUND-REPETIDA-2', from, text: 'Ainda está disponível?' };
    const bodies = [
      statusesBody(a.phoneNumberId, [], [message]),
      statusesBody(a.phoneNumberId, [], [message, message]),
      statusesBody(a.phoneNumberId, [{ id: 'wamid.OUTRA', to: from, status: 'delivered' }], [other, message]),
    ];
    const answers = [
      ...(await Promise.all(bodies.map((b) => deliver(a, b)))),
      ...(await Promise.all(bodies.map((b) => deliver(a, b)))),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Three distinct events in all: the two messages and the status.
    expect(answers.reduce((n, r) => n + r.body.applied, 0)).toBe(3);
    const stored = () =>
      ctx.database.db
        .select({ id: whatsappInboundMessages.providerMessageId })
        .from(whatsappInboundMessages)
        .where(eq(whatsappInboundMessages.userId, a.user.id));
    await waitFor(stored, (r) => r.length === 2);
    await ctx.app.deps.chatbot.idle();
    expect((await stored()).map((r) => r.id).sort()).toEqual([message.id, other.id].sort());
    const conversation = await ctx.database.db
      .select({ text: conversationMessages.text })
      .from(conversationMessages)
      .where(eq(conversationMessages.userId, a.user.id));
    expect(conversation.filter((m) => m.text === message.text)).toHaveLength(1);
    expect(conversation.filter((m) => m.text === other.text)).toHaveLength(1);
  });
});
