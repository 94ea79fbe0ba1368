import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cloudApiMsg } from '../../../contract/cloud-api';
import { type ConnectionView, connectionsMsg, HEALTH_SIGNALS_WARNING } from '../../../contract/connections';
import { rowsOf } from '../../db/rows';
import { connections, contacts, whatsappInboundMessages } from '../../db/schema';
import { BLOCK_REASONS } from '../../sending/failures';
import { appWithGraphPerFile } from '../../testing/app-per-file';
import { insertCampaign } from '../../testing/campaigns';
import { addPersonalNumber, pairNumber } from '../../testing/connections';
import { sendingSettings } from '../../testing/sending-settings';
import { type ApiMethod, apiCall, createUser, loginAs, waitFor } from '../../testing/test-app';
import { simulatedNumber } from '../../whatsapp/simulator/simulator-driver';

/**
 * An account's numbers through `/api/connections`: personal numbers paired through the simulator,
 * Cloud API numbers checked against a fake Graph API, the default number the spec's routes keep
 * meaning, the plan's limit, and no account reaching another's numbers.
 */
const { ctx, graph } = appWithGraphPerFile(
  { WHATSAPP_DRIVER: 'simulator' },
  { simulatorTimings: { qrMs: 30, detectMs: 20, deliveredMs: 20, readMs: 40 } },
);
let seq = 0;

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

const addPersonal = (cookie: string, label: string) => addPersonalNumber(ctx, cookie, label);
const pair = (cookie: string, id: string) => pairNumber(ctx, cookie, id);

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

/** A finished campaign of the account with failed rows, each on a number with its `error` and when it failed. */
async function failedRows(
  userId: string,
  rows: Array<{ connectionId: string; error: string; hoursAgo?: number }>,
): Promise<void> {
  const n = ++seq;
  await insertCampaign(
    ctx.database.db,
    { userId, name: `Falhas ${n}`, message: 'Oi', status: 'completed' },
    rows.map((r, i) => ({
      recipient: `55219${String(n).padStart(4, '0')}${String(i).padStart(4, '0')}`,
      connectionId: r.connectionId,
      status: 'failed' as const,
      error: r.error,
      failedAt: new Date(Date.now() - (r.hoursAgo ?? 0) * 3_600_000),
    })),
  );
}

/** A message received on one of the account's numbers, written directly. */
async function inbound(userId: string, connectionId: string, phone: string, text: string) {
  await ctx.database.db.insert(whatsappInboundMessages).values({
    userId,
    connectionId,
    channel: 'simulator',
    fromPhone: phone,
    text,
    providerMessageId: `in-${++seq}-${Math.random().toString(36).slice(2)}`,
  });
}

/** The account's contact with this phone, opted out writing to one of the numbers (as the chatbot records it), and its message, written directly. */
async function optedOutWriting(userId: string, connectionId: string, phone: string, text: string) {
  const optOut = { optedOut: true, optedOutAt: new Date(), optedOutVia: connectionId };
  await ctx.database.db
    .insert(contacts)
    .values({ userId, name: 'Cliente', phone: `+${phone}`, ...optOut })
    .onConflictDoUpdate({ target: [contacts.userId, contacts.phone], set: optOut });
  await inbound(userId, connectionId, phone, text);
}

describe('a number’s health signals: blocks and opt-outs in the last 24 h', () => {
  it('counts per number only the 131026/131050 failures and the opt-outs written to it, never another account’s', async () => {
    const { user, cookie } = await customer();
    const a = await addPersonal(cookie, 'A');
    const b = await addPersonal(cookie, 'B');
    await pair(cookie, a.id);
    await pair(cookie, b.id);
    const other = await customer();
    const [undeliverable, noMarketing] = BLOCK_REASONS;
    await failedRows(user.id, [
      // The send refused (its pt-BR reason) and the Cloud API webhook's later failure ("<code> <title>").
      { connectionId: a.id, error: undeliverable },
      { connectionId: a.id, error: undeliverable },
      { connectionId: a.id, error: '131026 Message undeliverable' },
      { connectionId: a.id, error: noMarketing },
      // Another reason, and a block older than 24 h: failures, not blocks (the old one not even a failure now).
      { connectionId: a.id, error: 'Erro no modelo de mensagem (132000): Param mismatch' },
      { connectionId: a.id, error: undeliverable, hoursAgo: 25 },
      { connectionId: b.id, error: 'Tipo de mensagem não suportado.' },
      { connectionId: b.id, error: '1310260 Não é o código 131026' },
    ]);
    // Another account's rows, even naming this account's number, never count here.
    await failedRows(other.user.id, [
      { connectionId: a.id, error: undeliverable },
      { connectionId: b.id, error: undeliverable },
    ]);

    // Opt-outs through the real inbound path: on A a contact, and one whose WhatsApp number lacks the ninth digit.
    const db = ctx.database.db;
    await db.insert(contacts).values([
      { userId: user.id, name: 'Ana', phone: '+5521977770011' },
      { userId: user.id, name: 'Bia', phone: '+5521977770012' },
      { userId: user.id, name: 'Caio', phone: '+5521977770014' },
    ]);
    const manager = ctx.app.deps.connections;
    await manager.simulateInboundOn(a.id, '5521977770011', 'Sair!');
    await manager.simulateInboundOn(a.id, '552177770012', 'parar');
    // The messages recorded on A and the opt-outs applied, as the chatbot stores them, before counting.
    await waitFor(
      async () => {
        await ctx.app.deps.chatbot.idle();
        return db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.userId, user.id));
      },
      (rows) => rows.length === 2,
    );
    const optedOut = await waitFor(
      () =>
        db
          .select({ phone: contacts.phone })
          .from(contacts)
          .where(and(eq(contacts.userId, user.id), eq(contacts.optedOut, true))),
      (rows) => ['+5521977770011', '+5521977770012'].every((p) => rows.some((r) => r.phone === p)),
    );
    // On B: the opted-out contact saying something else, and an opt-out word inside a sentence from a contact
    // who is not opted out (the chatbot does not take it for one): neither counts.
    await inbound(user.id, b.id, '5521977770011', 'oi');
    await inbound(user.id, b.id, '5521977770014', 'não quero sair');
    expect(optedOut.map((r) => r.phone).sort()).toEqual(['+5521977770011', '+5521977770012']);
    // Written again: one contact, counted once.
    await inbound(user.id, a.id, '5521977770011', 'SAIR');
    // Another account's opted-out contact and its opt-out message (even on this account's number) never count:
    // this account's contact with that phone is not opted out, and the other's message is not this account's.
    await db.insert(contacts).values({ userId: user.id, name: 'Davi', phone: '+5521977770013' });
    await inbound(user.id, a.id, '5521977770013', 'SAIR');
    await optedOutWriting(other.user.id, a.id, '5521977770013', 'SAIR');
    await optedOutWriting(other.user.id, b.id, '5521977770015', 'SAIR');

    const { connections: numbers } = await list(cookie);
    const health = (id: string) => numbers.find((c) => c.id === id)?.health;
    expect(health(a.id)).toMatchObject({ recentFailures: 5, blocks: 4, optOuts: 2, repliesToday: 4 });
    expect(health(b.id)).toMatchObject({ recentFailures: 2, blocks: 0, optOuts: 0, repliesToday: 2 });
    // One number's page reads the same figures as the list.
    expect((await req('GET', `/api/connections/${a.id}`, cookie)).json().health).toMatchObject({
      blocks: 4,
      optOuts: 2,
    });
    // The other account sees none of it on its (empty) list.
    expect((await list(other.cookie)).connections).toEqual([]);
  });

  it('turns the number to “warning” when blocks and opt-outs reach the threshold, with fewer than five failures', async () => {
    const { user, cookie } = await customer();
    const number = await addPersonal(cookie, 'Vendas');
    const blocks = 3;
    await failedRows(
      user.id,
      Array.from({ length: blocks }, () => ({ connectionId: number.id, error: BLOCK_REASONS[0] })),
    );
    for (let i = 0; i < HEALTH_SIGNALS_WARNING - blocks - 1; i++) {
      await optedOutWriting(user.id, number.id, `552197777${String(1000 + i)}`, 'SAIR');
    }
    const below = (await list(cookie)).connections[0].health;
    expect(below).toMatchObject({ level: 'good', blocks, optOuts: HEALTH_SIGNALS_WARNING - blocks - 1 });
    await optedOutWriting(user.id, number.id, '5521977779999', 'Cancelar.');
    const at = (await list(cookie)).connections[0].health;
    expect(at).toMatchObject({ level: 'warning', recentFailures: blocks, optOuts: HEALTH_SIGNALS_WARNING - blocks });
  });
});

/** Marks a number restricted by WhatsApp, as the send loop does, and has the directory read it again. */
async function restrict(userId: string, connectionId: string, code = '131048') {
  await ctx.database.db
    .update(connections)
    .set({ restrictedCode: code, restrictedAt: new Date(), stopReason: 'restricted', stoppedAt: new Date() })
    .where(eq(connections.id, connectionId));
  ctx.app.deps.connections.directory.changed(userId);
}

const rowOf = async (id: string) => (await ctx.database.db.select().from(connections).where(eq(connections.id, id)))[0];

describe('clearing a restriction WhatsApp lifted early', () => {
  it('frees the number at once; a no-op on a number not restricted; another account’s number is not found', async () => {
    const { user, cookie } = await customer();
    const cloud = (
      await req('POST', '/api/connections', cookie, { kind: 'cloud', label: 'Oficial', ...graphNumber() })
    ).json().connection as ConnectionView;
    const other = (
      await req('POST', '/api/connections', cookie, { kind: 'cloud', label: 'Outro', ...graphNumber() })
    ).json().connection as ConnectionView;
    await restrict(user.id, cloud.id);
    // Stopped for another reason: clearing a restriction leaves it as it is.
    await ctx.database.db.update(connections).set({ stopReason: 'daily_limit' }).where(eq(connections.id, other.id));
    ctx.app.deps.connections.directory.changed(user.id);
    const before = (await list(cookie)).connections.find((c) => c.id === cloud.id);
    expect(before).toMatchObject({
      status: 'restricted',
      stopReason: 'restricted',
      health: { level: 'restricted', restriction: { code: '131048' } },
    });

    const intruder = await customer();
    const stolen = await req('PATCH', `/api/connections/${cloud.id}`, intruder.cookie, { clearRestriction: true });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe(connectionsMsg.notFound);
    expect((await rowOf(cloud.id)).restrictedCode).toBe('131048');

    const res = await req('PATCH', `/api/connections/${cloud.id}`, cookie, { clearRestriction: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(connectionsMsg.restrictionCleared);
    expect(res.json().connection).toMatchObject({
      status: 'connected',
      stopReason: null,
      health: { level: 'good', restriction: null },
    });
    expect(await rowOf(cloud.id)).toMatchObject({
      restrictedCode: null,
      restrictedAt: null,
      stopReason: null,
      stoppedAt: null,
    });
    expect((await list(cookie)).connections.find((c) => c.id === cloud.id)?.status).toBe('connected');

    // Again, and on a number that is not restricted: success, nothing changes.
    expect((await req('PATCH', `/api/connections/${cloud.id}`, cookie, { clearRestriction: true })).statusCode).toBe(
      200,
    );
    const untouched = await req('PATCH', `/api/connections/${other.id}`, cookie, { clearRestriction: true });
    expect(untouched.statusCode, untouched.body).toBe(200);
    expect(untouched.json().connection).toMatchObject({ status: 'connected', stopReason: 'daily_limit' });
    expect((await rowOf(other.id)).stopReason).toBe('daily_limit');
  });

  it('a campaign waiting on the restricted number resumes at once, not when the lane would look again (a minute)', async () => {
    const { user, cookie } = await customer();
    const number = (
      await req('POST', '/api/connections', cookie, { kind: 'cloud', label: 'Oficial', ...graphNumber() })
    ).json().connection as ConnectionView;
    const settings = await req('PUT', '/api/settings/whatsapp', cookie, {
      ...sendingSettings('cloud'),
      channel: undefined,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    // Ending in 1: numbers the simulator and the fake Graph API take.
    const phones = ['5521966660011', '5521966660021'];
    await ctx.database.db
      .insert(contacts)
      .values(phones.map((p, i) => ({ userId: user.id, name: `C${i}`, phone: `+${p}` })));
    await restrict(user.id, number.id);
    const created = await req('POST', '/api/campaigns', cookie, {
      name: 'Depois da restrição',
      message: 'Oi {{nome}}',
      targetType: 'all',
      connectionIds: [number.id],
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as string;
    expect((await req('POST', `/api/campaigns/${id}/send`, cookie)).statusCode).toBe(200);
    const waiting = async () =>
      rowsOf<{ status: string; waiting_reason: string | null }>(
        await ctx.database.db.execute(sql`select status, waiting_reason from campaigns where id = ${id}`),
      )[0];
    // The lane found the number restricted: the campaign waits, and the lane looks again only in a minute.
    await waitFor(waiting, (c) => c.status === 'in_progress' && c.waiting_reason === 'numbers_stopped', 8000);
    expect(graph.sent.filter((m) => phones.includes(m.to as string))).toHaveLength(0);

    const freed = await req('PATCH', `/api/connections/${number.id}`, cookie, { clearRestriction: true });
    expect(freed.statusCode, freed.body).toBe(200);
    await waitFor(waiting, (c) => c.status === 'completed', 10_000);
    expect(
      graph.sent
        .filter((m) => phones.includes(m.to as string))
        .map((m) => m.to)
        .sort(),
    ).toEqual(phones);
  });
});
