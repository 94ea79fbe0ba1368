import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApiMsg } from '../../../contract/cloud-api';
import { type ConnectionDetail, type ConnectionView, connectionsMsg } from '../../../contract/connections';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import {
  type ApiMethod,
  apiCall,
  createTestApp,
  createUser,
  loginAs,
  type TestContext,
  waitFor,
} from '../../testing/test-app';
import { simulatedNumber } from '../../whatsapp/simulator/simulator-driver';

/**
 * An account's numbers through `/api/connections`: personal numbers paired through the simulator,
 * Cloud API numbers checked against a fake Graph API, the default number the spec's routes keep
 * meaning, the plan's limit, and no account reaching another's numbers.
 */
let ctx: TestContext;
let graph: FakeGraphApi;
let seq = 0;

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  ctx = await createTestApp(
    {
      WHATSAPP_DRIVER: 'simulator',
      GRAPH_API_URL: graph.url,
      GRAPH_API_VERSION: 'v26.0',
      PUBLIC_URL: 'https://app.example.com',
    },
    undefined,
    { simulatorTimings: { qrMs: 30, detectMs: 20, deliveredMs: 20, readMs: 40 } },
  );
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

async function customer(planType: 'basic' | 'professional' | 'admin' = 'professional') {
  const user = await createUser(ctx, { planType });
  return { user, cookie: await loginAs(ctx, user) };
}

const req = (method: ApiMethod, url: string, cookie: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

async function list(cookie: string) {
  const res = await req('GET', '/api/connections', cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { connections: ConnectionView[]; limit: number | null };
}

/** A phone number at the fake Graph API, with its token. */
function graphNumber() {
  const n = ++seq;
  const phoneNumberId = `30${n}0000000${n}`;
  const token = `EAAG-conn-${n}-${Math.random().toString(36).slice(2)}`;
  graph.addPhone(phoneNumberId, token, `55113100${String(n).padStart(4, '0')}`, `Loja ${n}`);
  return { phoneNumberId, accessToken: token };
}

async function addPersonal(cookie: string, label: string): Promise<ConnectionView> {
  const res = await req('POST', '/api/connections', cookie, { kind: 'personal', label });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().connection;
}

async function pair(cookie: string, id: string): Promise<ConnectionDetail> {
  const res = await req('POST', `/api/connections/${id}/connect`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return waitFor(
    async () => (await req('GET', `/api/connections/${id}`, cookie)).json() as ConnectionDetail,
    (c) => c.status === 'connected' && c.phoneNumber !== null,
  );
}

describe('the spec’s routes on the default number', () => {
  it('connect through /api/whatsapp/connect: the account’s first number, default, seen the same on both APIs', async () => {
    const { cookie } = await customer('basic');
    expect(await list(cookie)).toEqual({ connections: [], limit: 1 });
    expect((await req('POST', '/api/whatsapp/connect', cookie)).statusCode).toBe(200);
    const session = await waitFor(
      async () => (await req('GET', '/api/whatsapp-session', cookie)).json(),
      (s) => s.phoneNumber !== null,
    );
    const { connections } = await list(cookie);
    expect(connections).toHaveLength(1);
    const [number] = connections;
    expect(number).toMatchObject({
      kind: 'personal',
      label: connectionsMsg.defaultLabelPersonal,
      isDefault: true,
      paused: false,
      status: 'connected',
      health: { level: 'good', recentFailures: 0, restriction: null },
    });
    expect(session.phoneNumber).toBe(simulatedNumber(number.id));
    expect(number.phoneNumber).toBe(`+${session.phoneNumber.replace(/\D/g, '')}`);
    // The spec's disconnect logs the same number out.
    expect((await req('POST', '/api/whatsapp/disconnect', cookie)).statusCode).toBe(200);
    expect((await list(cookie)).connections[0].status).toBe('disconnected');
  });

  it('a second personal number added and paired leaves the poll on the default one until it is made default', async () => {
    const { user, cookie } = await customer();
    await req('POST', '/api/whatsapp/connect', cookie);
    const first = (await list(cookie)).connections[0];
    const sales = await addPersonal(cookie, 'Vendas');
    expect(sales).toMatchObject({ label: 'Vendas', isDefault: false, status: 'disconnected', phoneNumber: null });
    const paired = await pair(cookie, sales.id);
    expect(paired.phoneNumber).toBe(`+${simulatedNumber(sales.id).replace(/\D/g, '')}`);
    expect(simulatedNumber(sales.id)).not.toBe(simulatedNumber(first.id));
    await waitFor(
      async () => (await req('GET', '/api/whatsapp-session', cookie)).json(),
      (s) => s.phoneNumber === simulatedNumber(first.id),
    );
    // The channel card reads the default number too.
    expect((await req('GET', '/api/whatsapp/channel', cookie)).json()).toMatchObject({
      channel: 'personal',
      personal: { connected: true, phoneNumber: simulatedNumber(first.id) },
    });

    const made = await req('PATCH', `/api/connections/${sales.id}`, cookie, { isDefault: true });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().connection.isDefault).toBe(true);
    expect((await req('GET', '/api/whatsapp-session', cookie)).json().phoneNumber).toBe(simulatedNumber(sales.id));
    const after = await list(cookie);
    expect(after.connections.filter((c) => c.isDefault).map((c) => c.id)).toEqual([sales.id]);
    // The driver that sends for the account is the new default's.
    const driver = await ctx.app.deps.drivers.get(user.id);
    expect(driver?.status().phoneNumber).toBe(simulatedNumber(sales.id));
    // Unmarking the only default is refused: another one must be chosen.
    const unset = await req('PATCH', `/api/connections/${sales.id}`, cookie, { isDefault: false });
    expect(unset.statusCode).toBe(409);
    expect(unset.json().message).toBe(connectionsMsg.keepDefault);
  });
});

describe('adding numbers', () => {
  it('is refused over the plan’s limit with a pt-BR message', async () => {
    const { cookie } = await customer('basic');
    await addPersonal(cookie, 'Principal');
    const over = await req('POST', '/api/connections', cookie, { kind: 'personal', label: 'Segundo' });
    expect(over.statusCode).toBe(403);
    expect(over.json().message).toBe(connectionsMsg.limitReached(1));
    expect(over.json().message).toContain('Faça upgrade');

    const pro = await customer('professional');
    for (const label of ['A', 'B', 'C']) await addPersonal(pro.cookie, label);
    expect((await req('POST', '/api/connections', pro.cookie, { kind: 'personal', label: 'D' })).statusCode).toBe(403);
    const admin = await customer('admin');
    for (const label of ['A', 'B', 'C', 'D', 'E', 'F']) await addPersonal(admin.cookie, label);
    expect((await list(admin.cookie)).limit).toBeNull();
  });

  it('checks a Cloud number against the Graph API; two Cloud numbers each with their own webhook, none with a secret', async () => {
    const { cookie } = await customer();
    const one = graphNumber();
    const two = graphNumber();
    const bad = await req('POST', '/api/connections', cookie, {
      kind: 'cloud',
      label: 'Errado',
      accessToken: 'EAAG-wrong',
      phoneNumberId: one.phoneNumberId,
    });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().message).toContain(cloudApiMsg.invalidCredentials);
    expect((await list(cookie)).connections).toEqual([]);

    const first = await req('POST', '/api/connections', cookie, {
      kind: 'cloud',
      label: 'Oficial 1',
      ...one,
      appSecret: 's1',
    });
    expect(first.statusCode, first.body).toBe(201);
    const second = await req('POST', '/api/connections', cookie, { kind: 'cloud', label: 'Oficial 2', ...two });
    expect(second.statusCode, second.body).toBe(201);
    const { connections } = await list(cookie);
    expect(connections.map((c) => [c.label, c.kind, c.isDefault, c.status, c.phoneNumberId])).toEqual([
      ['Oficial 1', 'cloud', true, 'connected', one.phoneNumberId],
      ['Oficial 2', 'cloud', false, 'connected', two.phoneNumberId],
    ]);
    expect(connections[0].webhookUrl).toMatch(
      /^https:\/\/app\.example\.com\/api\/whatsapp-business\/webhook\/[0-9a-f]{32}$/,
    );
    expect(connections[0].webhookUrl).not.toBe(connections[1].webhookUrl);
    expect(connections[0].verifyToken).not.toBe(connections[1].verifyToken);
    const body = JSON.stringify(connections);
    for (const secret of [one.accessToken, two.accessToken, 's1']) expect(body).not.toContain(secret);
    // The account's default Cloud number is what the spec's panel shows.
    expect((await req('GET', '/api/whatsapp-business/config', cookie)).json().phoneNumberId).toBe(one.phoneNumberId);
    // A Cloud number has no QR code.
    const qr = await req('POST', `/api/connections/${connections[0].id}/connect`, cookie);
    expect(qr.statusCode).toBe(409);
    expect(qr.json().message).toBe(connectionsMsg.cloudHasNoQr);

    // The same phone number id on another account (or twice on this one): 409.
    const other = await customer();
    for (const c of [other.cookie, cookie]) {
      const taken = await req('POST', '/api/connections', c, { kind: 'cloud', label: 'Cópia', ...one });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe(cloudApiMsg.phoneNumberInUse);
    }
  });

  it('answers bad input with pt-BR field messages and stores nothing', async () => {
    const { cookie } = await customer();
    const empty = await req('POST', '/api/connections', cookie, { kind: 'personal', label: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors).toMatchObject({ label: connectionsMsg.labelRequired });
    const kind = await req('POST', '/api/connections', cookie, { kind: 'fax', label: 'X' });
    expect(kind.statusCode).toBe(400);
    const long = await req('POST', '/api/connections', cookie, { kind: 'personal', label: 'x'.repeat(41) });
    expect(long.json().fieldErrors).toMatchObject({ label: connectionsMsg.labelTooLong });
    const number = await addPersonal(cookie, 'Vendas');
    const hours = await req('PATCH', `/api/connections/${number.id}`, cookie, {
      settings: { businessStart: '18:00', businessEnd: '09:00' },
    });
    expect(hours.statusCode).toBe(400);
    const delay = await req('PATCH', `/api/connections/${number.id}`, cookie, { settings: { messageDelay: 0 } });
    expect(delay.statusCode).toBe(400);
    expect((await list(cookie)).connections.map((c) => [c.label, c.settings])).toEqual([['Vendas', {}]]);
  });
});

describe('changing and removing a number', () => {
  it('renames, pauses and sets its own settings (null goes back to the account’s)', async () => {
    const { cookie } = await customer();
    const number = await addPersonal(cookie, 'Vendas');
    const res = await req('PATCH', `/api/connections/${number.id}`, cookie, {
      label: 'Pós-venda',
      paused: true,
      settings: { dailyLimit: 250, messageDelay: 12 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().connection).toMatchObject({
      label: 'Pós-venda',
      paused: true,
      settings: { dailyLimit: 250, messageDelay: 12 },
      dailyLimit: 250,
    });
    const back = await req('PATCH', `/api/connections/${number.id}`, cookie, { settings: { dailyLimit: null } });
    expect(back.json().connection).toMatchObject({ settings: { messageDelay: 12 }, dailyLimit: 1000, paused: true });
  });

  it('removes a number: out of the list, the default moves to the oldest left, its Cloud webhook answers 404', async () => {
    const { cookie } = await customer();
    const cloud = graphNumber();
    const first = await req('POST', '/api/connections', cookie, {
      kind: 'cloud',
      label: 'Oficial',
      ...cloud,
      appSecret: 'x',
    });
    const view = first.json().connection as ConnectionView;
    const personal = await addPersonal(cookie, 'Vendas');
    expect(view.isDefault).toBe(true);
    expect((await req('GET', '/api/settings/whatsapp', cookie)).json().channel).toBe('cloud');

    const removed = await req('DELETE', `/api/connections/${view.id}`, cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().message).toBe(connectionsMsg.removed);
    const { connections } = await list(cookie);
    expect(connections.map((c) => [c.id, c.isDefault])).toEqual([[personal.id, true]]);
    expect((await req('GET', '/api/settings/whatsapp', cookie)).json().channel).toBe('personal');
    const webhook = await ctx.app.inject({
      method: 'GET',
      url: `${view.webhookPath}?hub.mode=subscribe&hub.verify_token=${view.verifyToken}&hub.challenge=1`,
    });
    expect(webhook.statusCode).toBe(404);
    expect((await req('GET', `/api/connections/${view.id}`, cookie)).statusCode).toBe(404);
    // The phone number id is free again.
    expect(
      (await req('POST', '/api/connections', cookie, { kind: 'cloud', label: 'De novo', ...cloud })).statusCode,
    ).toBe(201);
  });

  it('choosing the channel in the settings makes that kind’s number the default', async () => {
    const { cookie } = await customer();
    const personal = await addPersonal(cookie, 'Pessoal');
    const cloud = (
      await req('POST', '/api/connections', cookie, { kind: 'cloud', label: 'Oficial', ...graphNumber() })
    ).json().connection as ConnectionView;
    expect((await list(cookie)).connections.find((c) => c.isDefault)?.id).toBe(personal.id);
    const settings = (await req('GET', '/api/settings/whatsapp', cookie)).json();
    expect((await req('PUT', '/api/settings/whatsapp', cookie, { ...settings, channel: 'cloud' })).statusCode).toBe(
      200,
    );
    expect((await list(cookie)).connections.find((c) => c.isDefault)?.id).toBe(cloud.id);
  });
});

describe('another account’s numbers', () => {
  it('are not found on any route, and nothing of them changes', async () => {
    const owner = await customer();
    const number = await addPersonal(owner.cookie, 'Segredo');
    await pair(owner.cookie, number.id);
    const intruder = await customer();
    const path = `/api/connections/${number.id}`;
    for (const [method, url, body] of [
      ['GET', path, undefined],
      ['PATCH', path, { label: 'Roubado', isDefault: true }],
      ['POST', `${path}/connect`, {}],
      ['POST', `${path}/disconnect`, undefined],
      ['DELETE', path, undefined],
    ] as const) {
      const res = await req(method, url, intruder.cookie, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe(connectionsMsg.notFound);
    }
    expect((await list(intruder.cookie)).connections).toEqual([]);
    const mine = (await list(owner.cookie)).connections;
    expect(mine).toMatchObject([{ id: number.id, label: 'Segredo', status: 'connected' }]);
  });
});

describe('conversations and the chatbot per number', () => {
  it('the bot answers only where it is on; opt-out works on every number; replies go out through the number written to', async () => {
    const { cookie } = await customer();
    const bot = await req('POST', '/api/bot-config', cookie, {
      isEnabled: true,
      welcomeMessage: 'Bem-vindo à loja!',
      autoReplies: [{ trigger: 'preco', response: 'Tabela de preços' }],
    });
    expect(bot.statusCode, bot.body).toBe(200);
    const sales = await addPersonal(cookie, 'Vendas');
    const support = await addPersonal(cookie, 'Suporte');
    await pair(cookie, sales.id);
    await pair(cookie, support.id);
    const off = await req('PATCH', `/api/connections/${support.id}`, cookie, { botEnabled: false });
    expect(off.json().connection.botEnabled).toBe(false);
    const outbox = (id: string) =>
      (ctx.app.deps.connections.personalDriver(id) as unknown as { outbox: Array<{ to: string }> }).outbox;

    await ctx.app.deps.connections.simulateInboundOn(sales.id, '5521977770001', 'oi');
    await ctx.app.deps.connections.simulateInboundOn(support.id, '5521977770002', 'oi');
    await ctx.app.deps.chatbot.idle();
    expect(outbox(sales.id).map((m) => m.to)).toEqual(['5521977770001']);
    expect(outbox(support.id)).toEqual([]);

    // Opt-out is honoured (and confirmed) on the number whose bot is off.
    await ctx.app.deps.connections.simulateInboundOn(support.id, '5521977770002', 'SAIR');
    await ctx.app.deps.chatbot.idle();
    expect(outbox(support.id).map((m) => m.to)).toEqual(['5521977770002']);
    const contact = await waitFor(
      async () => (await req('GET', '/api/contacts', cookie)).json() as Array<{ phone: string; optedOut?: boolean }>,
      (list) => list.some((c) => c.phone.replace(/\D/g, '') === '5521977770002' && c.optedOut === true),
    );
    expect(contact.length).toBeGreaterThan(0);

    const all = (await req('GET', '/api/conversations', cookie)).json().conversations as Array<{
      phone: string;
      connectionId: string;
      numberLabel: string;
    }>;
    expect(all.map((c) => [c.phone, c.numberLabel]).sort()).toEqual([
      ['5521977770001', 'Vendas'],
      ['5521977770002', 'Suporte'],
    ]);
    const onSupport = (await req('GET', `/api/conversations?connectionId=${support.id}`, cookie)).json().conversations;
    expect(onSupport.map((c: { phone: string }) => c.phone)).toEqual(['5521977770002']);

    // A person's answer goes out through the number the contact wrote to.
    const before = outbox(sales.id).length;
    const supportBefore = outbox(support.id).length;
    const manual = await req('POST', '/api/conversations/5521977770001/messages', cookie, { text: 'Posso ajudar?' });
    expect(manual.statusCode, manual.body).toBe(200);
    expect(outbox(sales.id)).toHaveLength(before + 1);
    expect(outbox(support.id)).toHaveLength(supportBefore);
  });
});
