import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectionsMsg } from '../../../contract/connections';
import { OPT_OUT_CONFIRMATION } from '../../../contract/contacts';
import type { WhatsappSession } from '../../../contract/whatsapp';
import { whatsappMsg } from '../../../contract/whatsapp-connection';
import { recordInbound } from '../../chatbot/pipeline';
import { campaignRecipients, connections, whatsappInboundMessages } from '../../db/schema';
import { classifyFailure } from '../../sending/failures';
import { recordReceipt } from '../../sending/receipts';
import { appPerFile } from '../../testing/app-per-file';
import { insertCampaign } from '../../testing/campaigns';
import { addPersonalNumber, insertConnection, pairNumber } from '../../testing/connections';
import {
  apiCall,
  connectSimulator,
  createTestApp,
  createUser,
  loginAs,
  newCustomer,
  waitFor,
} from '../../testing/test-app';
import { type Driver, DriverError } from '../../whatsapp/driver';
import { ConnectionManager } from '../../whatsapp/manager';
import { ConnectionRegistry } from '../../whatsapp/registry';
import { simulatedNumber } from '../../whatsapp/simulator/simulator-driver';
import { updateAccountSettings } from '../settings';

const timings = { qrMs: 80, detectMs: 80, deliveredMs: 40, readMs: 80 };
const ctx = appPerFile(() => createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, { simulatorTimings: timings }));

const customer = () => newCustomer(ctx);

const session = async (cookie: string): Promise<WhatsappSession> =>
  (await ctx.app.inject({ method: 'GET', url: '/api/whatsapp-session', headers: { cookie } })).json();

const post = (url: string, cookie: string, payload?: object) => apiCall(ctx, 'POST', url, { payload, cookie });

const connectedDriver = (userId: string, cookie: string) => connectSimulator(ctx, userId, cookie);

describe('personal number through the simulator', () => {
  it('walks QR → connected without number → online, then disconnects', async () => {
    const { user, cookie } = await customer();
    expect(await session(cookie)).toEqual({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });

    const res = await post('/api/whatsapp/connect', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, pairingCode: null });

    const qr = await session(cookie);
    expect(qr.state).toBe('qr');
    expect(qr.isConnected).toBe(false);
    expect(qr.qr).toMatch(/^SIMULADOR@/);

    const detecting = await waitFor(
      () => session(cookie),
      (s) => s.isConnected,
    );
    expect(detecting).toMatchObject({ isConnected: true, phoneNumber: null, qr: null });
    const online = await waitFor(
      () => session(cookie),
      (s) => s.phoneNumber !== null,
    );
    const number = await ctx.app.deps.connections.directory.primary(user.id, 'personal');
    expect(online.phoneNumber).toBe(simulatedNumber(number?.id ?? ''));
    expect(online.phoneNumber).toMatch(/^\+55 11 9\d{4}-\d{4}$/);

    // Connecting again while connected changes nothing.
    expect((await post('/api/whatsapp/connect', cookie)).statusCode).toBe(200);
    expect((await session(cookie)).phoneNumber).toBe(online.phoneNumber);

    const [row] = await ctx.database.db
      .select()
      .from(connections)
      .where(and(eq(connections.userId, user.id), eq(connections.kind, 'personal')));
    expect(row).toMatchObject({ active: true, driver: 'simulator', phoneNumber: online.phoneNumber });

    const off = await post('/api/whatsapp/disconnect', cookie);
    expect(off.json()).toEqual({ success: true, message: 'WhatsApp desconectado com sucesso.' });
    expect(await session(cookie)).toMatchObject({ isConnected: false, state: 'disconnected' });
    const [after] = await ctx.database.db
      .select()
      .from(connections)
      .where(and(eq(connections.userId, user.id), eq(connections.kind, 'personal')));
    expect(after.active).toBe(false);
  });

  it('gives a pairing code instead of a QR for a phone number, and refuses a bad number', async () => {
    const { cookie } = await customer();
    const bad = await post('/api/whatsapp/connect', cookie, { phoneNumber: '123' });
    expect(bad.statusCode).toBe(400);
    const res = await post('/api/whatsapp/connect', cookie, { phoneNumber: '+55 (11) 98765-4321' });
    expect(res.json().pairingCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect((await session(cookie)).qr).toBeNull();
    await waitFor(
      () => session(cookie),
      (s) => s.phoneNumber !== null,
    );
    await post('/api/whatsapp/disconnect', cookie);
  });

  it('keeps demo accounts read-only with their simulated number', async () => {
    const demo = await createUser(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const cookie = await loginAs(ctx, demo);
    expect(await session(cookie)).toMatchObject({ isConnected: true, state: 'connected' });
    expect((await post('/api/whatsapp/connect', cookie)).json().code).toBe('DEMO_READ_ONLY');
    expect((await post('/api/whatsapp/disconnect', cookie)).json().code).toBe('DEMO_READ_ONLY');
  });

  it('sends, and receipts move the campaign recipient forward by provider message id', async () => {
    const { user, cookie } = await customer();
    expect(await ctx.app.deps.drivers.get(user.id)).toBeNull();
    await post('/api/whatsapp/connect', cookie);
    await waitFor(
      () => session(cookie),
      (s) => s.phoneNumber !== null,
    );
    const driver = await ctx.app.deps.drivers.get(user.id);
    expect(driver?.kind).toBe('simulator');
    if (!driver) throw new Error('no driver');

    const { providerMessageId } = await driver.send('5511987654321', { kind: 'text', text: 'Olá!' });
    const db = ctx.database.db;
    const campaign = await insertCampaign(db, { userId: user.id, name: 'C', message: 'Olá!' }, [
      { recipient: '5511987654321', status: 'sent', providerMessageId },
    ]);
    const status = () =>
      db
        .select({ s: campaignRecipients.status })
        .from(campaignRecipients)
        .where(eq(campaignRecipients.campaignId, campaign.id))
        .then((r) => r[0].s);
    await waitFor(status, (s) => s === 'read');

    // Receipts never move a row backwards.
    await recordReceipt(ctx.database.db, user.id, { providerMessageId, status: 'delivered', at: new Date() });
    expect(await status()).toBe('read');

    await expect(driver.send('5511987654320', { kind: 'text', text: 'x' })).rejects.toMatchObject({
      kind: 'permanent',
    });
    expect(await driver.checkNumbers(['5511987654321', '5511987654320'])).toEqual([
      { number: '5511987654321', exists: true },
      { number: '5511987654320', exists: false },
    ]);
    const groups = await driver.listGroups();
    expect(groups).toHaveLength(3);
    expect(await driver.groupParticipants(groups[0].id)).toHaveLength(groups[0].membersCount);

    // The sending channel is the account's choice: with the Cloud API chosen and not configured, nothing sends.
    await updateAccountSettings(db, user.id, { channel: 'cloud' });
    expect(await ctx.app.deps.drivers.get(user.id)).toBeNull();
    await updateAccountSettings(db, user.id, { channel: 'personal' });
    await post('/api/whatsapp/disconnect', cookie);
  });

  it('opts a contact out when it answers SAIR, PARAR, STOP or CANCELAR, and tells it so once', async () => {
    const { user, cookie } = await customer();
    for (const [name, phone] of [
      ['Quer sair', '11911113333'],
      ['Fica', '11911114444'],
    ]) {
      await post('/api/contacts', cookie, { name, phone });
    }
    const driver = await connectedDriver(user.id, cookie);
    const sent: Array<{ to: string; text: string }> = [];
    const send = driver.send.bind(driver);
    driver.send = (to, message) => {
      if (message.kind === 'text') sent.push({ to, text: message.text });
      return send(to, message);
    };
    const optedOut = async () =>
      Object.fromEntries(
        (await ctx.app.inject({ method: 'GET', url: '/api/contacts', headers: { cookie } }))
          .json()
          .map((c: { name: string; phone: string; optedOut: boolean }) => [c.name || c.phone, c.optedOut]),
      );

    await post('/api/whatsapp/simulator/inbound', cookie, { from: '5511911114444', text: 'não quero sair' });
    await post('/api/whatsapp/simulator/inbound', cookie, { from: '5511900009999', text: 'SAIR' });
    await post('/api/whatsapp/simulator/inbound', cookie, { from: '5511911113333', text: 'Sair.' });
    await waitFor(optedOut, (o) => o['Quer sair'] === true);
    await ctx.app.deps.chatbot.idle();
    // A number that writes for the first time becomes a contact (without a name when it has no
    // profile name), so its SAIR is kept too.
    expect(await optedOut()).toEqual({ 'Quer sair': true, Fica: false, '+5511900009999': true });
    expect(sent.filter((s) => s.text === OPT_OUT_CONFIRMATION).sort((a, b) => a.to.localeCompare(b.to))).toEqual([
      { to: '5511900009999', text: OPT_OUT_CONFIRMATION },
      { to: '5511911113333', text: OPT_OUT_CONFIRMATION },
    ]);

    await post('/api/whatsapp/disconnect', cookie);
  });

  it('records injected inbound messages once and maps a numbered-menu answer to its button', async () => {
    const { user, cookie } = await customer();
    expect(
      (await post('/api/whatsapp/simulator/inbound', cookie, { from: '5511911112222', text: 'oi' })).statusCode,
    ).toBe(409);
    const driver = await connectedDriver(user.id, cookie);
    const seen: Array<{ text: string; buttonId?: string }> = [];
    driver.on('inbound', (m) => seen.push({ text: m.text, buttonId: m.buttonId }));

    const res = await post('/api/whatsapp/simulator/inbound', cookie, { from: '+55 11 91111-2222', text: 'Olá' });
    expect(res.json()).toMatchObject({ success: true, providerMessageId: expect.any(String) });

    await driver.send('5511911112222', {
      kind: 'interactive',
      text: 'Escolha',
      buttons: [
        { id: 'b1', text: 'Preços', type: 'quick_reply', value: 'precos' },
        { id: 'b2', text: 'Site', type: 'url', value: 'https://example.com' },
      ],
    });
    await post('/api/whatsapp/simulator/inbound', cookie, { from: '5511911112222', text: '1' });
    expect(seen).toEqual([{ text: 'Olá' }, { text: 'precos', buttonId: 'b1' }]);

    const rows = () =>
      ctx.database.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.userId, user.id));
    await waitFor(rows, (r) => r.length === 2);
    const first = (await rows()).find((r) => r.text === 'Olá');
    expect(first).toMatchObject({ fromPhone: '5511911112222', channel: 'simulator' });

    // A duplicate delivery of the same provider id is recorded once.
    const again = await recordInbound(ctx.database.db, user.id, driver.kind, {
      from: '5511911112222',
      text: 'Olá',
      providerMessageId: first?.providerMessageId ?? '',
      timestamp: new Date(),
    });
    expect(again).toBe(false);
    expect(await rows()).toHaveLength(2);
    await post('/api/whatsapp/disconnect', cookie);
  });

  it('restores saved connections at start-up, and shutdown closes without forgetting them', async () => {
    const { user, cookie } = await customer();
    await post('/api/whatsapp/connect', cookie);
    await waitFor(
      () => session(cookie),
      (s) => s.phoneNumber !== null,
    );

    const registry = new ConnectionRegistry();
    const restarted = new ConnectionManager({
      config: ctx.app.deps.config,
      db: ctx.database.db,
      registry,
      log: ctx.app.log,
      simulatorTimings: timings,
    });
    await restarted.restore();
    await waitFor(
      async () => registry.status({ id: user.id, accountType: 'active' }),
      (s) => s.phoneNumber !== null && s.phoneNumber === simulatedNumber(registry.primaryOf(user.id) ?? ''),
    );
    await restarted.shutdown();
    const [row] = await ctx.database.db
      .select()
      .from(connections)
      .where(and(eq(connections.userId, user.id), eq(connections.active, true)));
    expect(row).toBeDefined();
    await post('/api/whatsapp/disconnect', cookie);
  });
});

describe('the simulator routes on one of several numbers', () => {
  it('injects on the number asked for; another account’s, an unknown or a Cloud number is refused', async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'premium' });
    const sales = await addPersonalNumber(ctx, cookie, 'Vendas');
    const support = await addPersonalNumber(ctx, cookie, 'Suporte');
    expect(sales.isDefault).toBe(true);
    await pairNumber(ctx, cookie, sales.id);
    await pairNumber(ctx, cookie, support.id);
    const cloud = await insertConnection(ctx.database.db, user.id, 'cloud', { isDefault: false });
    ctx.app.deps.connections.directory.changed(user.id);

    const inbound = (payload: object, as = cookie) => post('/api/whatsapp/simulator/inbound', as, payload);
    expect((await inbound({ from: '5511911115555', text: 'no suporte', connectionId: support.id })).statusCode).toBe(
      200,
    );
    expect((await inbound({ from: '5511911115555', text: 'no padrão' })).statusCode).toBe(200);
    const rows = () =>
      ctx.database.db
        .select({ text: whatsappInboundMessages.text, connectionId: whatsappInboundMessages.connectionId })
        .from(whatsappInboundMessages)
        .where(eq(whatsappInboundMessages.userId, user.id));
    const recorded = await waitFor(rows, (r) => r.length === 2);
    expect(Object.fromEntries(recorded.map((r) => [r.text, r.connectionId]))).toEqual({
      'no suporte': support.id,
      'no padrão': sales.id,
    });

    // Another account's number answers exactly as an unknown one.
    const other = await newCustomer(ctx);
    const refused = await inbound({ from: '5511911115555', text: 'oi', connectionId: sales.id }, other.cookie);
    const unknown = await inbound({ from: '5511911115555', text: 'oi', connectionId: randomUUID() });
    for (const res of [refused, unknown]) {
      expect([res.statusCode, res.json().message]).toEqual([404, connectionsMsg.notFound]);
    }
    const malformed = await inbound({ from: '5511911115555', text: 'oi', connectionId: 'vendas' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(connectionsMsg.notFound);
    const onCloud = await inbound({ from: '5511911115555', text: 'oi', connectionId: cloud.id });
    expect([onCloud.statusCode, onCloud.json().message]).toEqual([409, whatsappMsg.simulatorPersonalOnly]);
    // Nothing more was recorded, on any account.
    expect(await rows()).toHaveLength(2);
    await post(`/api/connections/${support.id}/disconnect`, cookie);
    await post(`/api/connections/${sales.id}/disconnect`, cookie);
  });

  it('restricts a number: its next send fails as WhatsApp’s restriction, once; others refused as for inbound', async () => {
    const { cookie } = await newCustomer(ctx, { planType: 'premium' });
    const sales = await addPersonalNumber(ctx, cookie, 'Vendas');
    const support = await addPersonalNumber(ctx, cookie, 'Suporte');
    const restrict = (payload?: object, as = cookie) => post('/api/whatsapp/simulator/restrict', as, payload);
    // Not connected yet: nothing to restrict.
    expect((await restrict({ connectionId: support.id })).statusCode).toBe(409);
    await pairNumber(ctx, cookie, sales.id);
    await pairNumber(ctx, cookie, support.id);
    const manager = ctx.app.deps.connections;
    const driverOf = (id: string) => manager.personalDriver(id) as Driver;

    const armed = await restrict({ connectionId: support.id, code: '131048' });
    expect(armed.json()).toEqual({ success: true, message: whatsappMsg.restrictionArmed });
    // The default number is untouched; the restricted one fails once, as WhatsApp's 131048 reads.
    await expect(driverOf(sales.id).send('5511911116666', { kind: 'text', text: 'oi' })).resolves.toBeTruthy();
    const failure = await driverOf(support.id)
      .send('5511911116666', { kind: 'text', text: 'oi' })
      .then(
        () => null,
        (err) => err,
      );
    expect(failure).toBeInstanceOf(DriverError);
    expect(classifyFailure(failure)).toMatchObject({ action: 'pause', restriction: '131048' });
    await expect(driverOf(support.id).send('5511911116666', { kind: 'text', text: 'oi' })).resolves.toBeTruthy();

    // Without a number: the primary personal one, with WhatsApp's 463 by default.
    expect((await restrict()).statusCode).toBe(200);
    const timeLock = await driverOf(sales.id)
      .send('5511911116666', { kind: 'text', text: 'oi' })
      .then(
        () => null,
        (err) => err,
      );
    expect(classifyFailure(timeLock)).toMatchObject({ action: 'pause', restriction: '463' });

    const other = await newCustomer(ctx);
    const refused = await restrict({ connectionId: support.id }, other.cookie);
    expect([refused.statusCode, refused.json().message]).toEqual([404, connectionsMsg.notFound]);
    expect((await restrict({ connectionId: randomUUID() })).statusCode).toBe(404);
    const badCode = await restrict({ connectionId: support.id, code: '500' });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.body).toContain(whatsappMsg.restrictionCodeInvalid);
    // The other account's attempt armed nothing.
    await expect(driverOf(support.id).send('5511911116666', { kind: 'text', text: 'oi' })).resolves.toBeTruthy();
    await post(`/api/connections/${support.id}/disconnect`, cookie);
    await post(`/api/connections/${sales.id}/disconnect`, cookie);
  });
});

describe('without the simulator', () => {
  it('has no inbound injection route', async () => {
    const other = await createTestApp({ WHATSAPP_DRIVER: 'baileys' });
    try {
      const user = await createUser(other);
      const cookie = await loginAs(other, user);
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/whatsapp/simulator/inbound',
        headers: { cookie },
        payload: { from: '5511911112222', text: 'oi' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
