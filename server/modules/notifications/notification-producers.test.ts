import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ActivityPage } from '../../../contract/activity';
import { campaignMsg } from '../../../contract/campaigns';
import { type NotificationList, notificationLinks, notificationMsg } from '../../../contract/notifications';
import { rowsOf } from '../../db/rows';
import { contacts } from '../../db/schema';
import { BURST_FAILURES, BURST_WINDOW } from '../../sending/dispatcher';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import {
  apiCall,
  connectSimulator,
  createUser,
  loginAs,
  newCustomer,
  setAccountSettings,
  waitFor,
} from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

/**
 * Where notifications come from: the send loop finishing or pausing a campaign, the chatbot handing
 * a conversation to a person, an import, a sign-up awaiting approval and the WhatsApp connection
 * dropping and coming back — each through the real app and the simulator driver.
 */
const ctx = simulatorAppPerFile({ deliveredMs: 30, readMs: 60 });

const list = async (cookie: string): Promise<NotificationList> =>
  (await apiCall(ctx, 'GET', '/api/notifications', { cookie })).json();
const unread = async (cookie: string): Promise<number> =>
  (await apiCall(ctx, 'GET', '/api/notifications/unread-count', { cookie })).json().unread;
const activity = async (cookie: string): Promise<ActivityPage> =>
  (await apiCall(ctx, 'GET', '/api/activity?limit=100', { cookie })).json();

/** A customer with a connected simulated number, sending at any hour. */
async function sender(settings: Parameters<typeof setAccountSettings>[2] = {}) {
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false, ...settings });
  const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
  return { user, cookie, driver };
}

/**
 * Contacts already checked on WhatsApp. The simulator refuses a number ending in 0 for good, so
 * `failing` of them fail when sent.
 */
async function addContacts(userId: string, ok: number, failing = 0) {
  const rows = [
    ...Array.from({ length: ok }, (_, i) => `+55219876${String(54301 + i * 2).padStart(5, '0')}`),
    ...Array.from({ length: failing }, (_, i) => `+55219877${String(54300 + i * 10).padStart(5, '0')}`),
  ].map((phone, i) => ({ userId, name: `Contato ${i}`, phone, isWhatsappActive: true }));
  await ctx.database.db.insert(contacts).values(rows);
}

async function createAndSend(cookie: string, name: string): Promise<string> {
  const created = await apiCall(ctx, 'POST', '/api/campaigns', {
    cookie,
    payload: { name, message: 'Oi {{primeiro_nome}}!', targetType: 'contacts' },
  });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().id as string;
  const sent = await apiCall(ctx, 'POST', `/api/campaigns/${id}/send`, { cookie });
  expect(sent.statusCode, sent.body).toBe(200);
  return id;
}

const campaignStatus = async (id: string) =>
  rowsOf<{ status: string }>(await ctx.database.db.execute(sql`select status from campaigns where id = ${id}`))[0]
    .status;

describe('campaigns', () => {
  it('a campaign finishing through the simulator notifies its account with what was sent', async () => {
    const a = await sender();
    await addContacts(a.user.id, 2);
    const id = await createAndSend(a.cookie, 'Promo de Natal');
    await waitFor(
      () => campaignStatus(id),
      (s) => s === 'completed',
      10_000,
    );
    const got = await waitFor(
      () => list(a.cookie),
      (l) => l.notifications.length > 0,
    );
    expect(got.notifications).toHaveLength(1);
    expect(got.notifications[0]).toMatchObject({
      kind: 'campaign_completed',
      title: 'Campanha concluída',
      body: 'A campanha “Promo de Natal” terminou: 2 mensagens enviadas.',
      link: `/campaigns?report=${id}`,
      read: false,
    });
    expect(got.unread).toBe(1);
    expect(await unread(a.cookie)).toBe(1);

    const log = await activity(a.cookie);
    const kinds = log.events.map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['campaign_finished', 'campaign_started', 'campaign_created']);
    const finished = log.events[0];
    expect(finished).toMatchObject({ detail: 'Promo de Natal', actorId: null, userId: a.user.id });
    expect(log.events[1]).toMatchObject({ actorId: a.user.id, detail: 'Promo de Natal' });
  });

  it('a campaign whose every send failed is notified as failed', async () => {
    const a = await sender();
    await addContacts(a.user.id, 0, 2);
    const id = await createAndSend(a.cookie, 'Sem sorte');
    await waitFor(
      () => campaignStatus(id),
      (s) => s === 'failed',
      10_000,
    );
    const got = await waitFor(
      () => list(a.cookie),
      (l) => l.notifications.length > 0,
    );
    expect(got.notifications[0]).toMatchObject({
      kind: 'campaign_failed',
      title: notificationMsg.campaignFailed.title,
      body: notificationMsg.campaignFailed.body('Sem sorte', 2),
    });
    expect((await activity(a.cookie)).events[0]).toMatchObject({ kind: 'campaign_failed', actorId: null });
  });

  it('a campaign the engine pauses after a burst of failures is notified with the reason', async () => {
    const a = await sender();
    await addContacts(a.user.id, 0, BURST_FAILURES + 5);
    const id = await createAndSend(a.cookie, 'Lista velha');
    await waitFor(
      () => campaignStatus(id),
      (s) => s === 'paused',
      10_000,
    );
    const got = await waitFor(
      () => list(a.cookie),
      (l) => l.notifications.length > 0,
    );
    const reason = campaignMsg.pauseReason.burst(BURST_FAILURES, BURST_WINDOW);
    expect(got.notifications).toHaveLength(1);
    expect(got.notifications[0]).toMatchObject({
      kind: 'campaign_paused',
      title: 'Campanha pausada',
      body: `Campanha “Lista velha”. ${reason}`,
      link: notificationLinks.campaign(id),
    });
    expect((await activity(a.cookie)).events[0]).toMatchObject({
      kind: 'campaign_paused',
      actorId: null,
      detail: `Lista velha: ${reason}`,
    });
  });

  it('with “Atualizações de campanhas” off, a finished campaign is logged but not notified', async () => {
    const a = await sender({ campaignUpdates: false });
    await addContacts(a.user.id, 1);
    const id = await createAndSend(a.cookie, 'Silenciosa');
    await waitFor(
      () => campaignStatus(id),
      (s) => s === 'completed',
      10_000,
    );
    await waitFor(
      async () => (await activity(a.cookie)).events[0]?.kind,
      (k) => k === 'campaign_finished',
    );
    expect((await list(a.cookie)).notifications).toEqual([]);
    expect(await unread(a.cookie)).toBe(0);
  });
});

describe('the chatbot', () => {
  it('handing a conversation to a person notifies the account, linking to the conversation', async () => {
    const a = await sender();
    expect(
      (await apiCall(ctx, 'POST', '/api/bot-config', { cookie: a.cookie, payload: { isEnabled: true } })).statusCode,
    ).toBe(200);
    a.driver.injectInbound('5511987650123', 'Quero falar com um atendente, por favor');
    await ctx.app.deps.chatbot.idle();
    const got = await list(a.cookie);
    expect(got.notifications).toHaveLength(1);
    expect(got.notifications[0]).toMatchObject({
      kind: 'conversation_handoff',
      title: notificationMsg.handoff.title,
      body: notificationMsg.handoff.contact('+55 11 98765-0123'),
    });
    // The link opens the conversation on the number the contact wrote to.
    const number = (await ctx.app.deps.connections.directory.defaultOf(a.user.id))?.id;
    expect(got.notifications[0].link).toBe(`/conversations?phone=5511987650123&number=${number}`);
    // The bot is silent with this contact now: a second message is no second notice.
    a.driver.injectInbound('5511987650123', 'Alô? Quero um atendente');
    await ctx.app.deps.chatbot.idle();
    expect(await unread(a.cookie)).toBe(1);
    // The bot configuration change is in the log.
    expect((await activity(a.cookie)).events.map((e) => e.kind)).toContain('bot_changed');
  });
});

describe('imports', () => {
  it('a successful import notifies “Importação concluída” with the count and is logged', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const csv = 'Nome,Telefone\nAna,21998765401\nBia,21998765403\nAna de novo,21998765401\n';
    const res = await apiCall(ctx, 'POST', '/api/contacts/import', {
      cookie,
      file: { name: 'clientes.csv', data: csv },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, imported: 2, duplicates: 1 });
    const got = await list(cookie);
    expect(got.notifications).toHaveLength(1);
    expect(got.notifications[0]).toMatchObject({
      kind: 'contacts_imported',
      title: 'Importação concluída',
      body: '2 contatos importados com sucesso; 1 duplicado ignorado',
      link: '/contacts',
    });
    expect((await activity(cookie)).events[0]).toMatchObject({
      kind: 'contacts_imported',
      actorId: user.id,
      detail: 'clientes.csv: 2 contatos importados com sucesso; 1 duplicado ignorado',
    });
  });

  it('an import that fails is not notified', async () => {
    const { cookie } = await newCustomer(ctx);
    const file = { name: 'ruim.csv', data: 'Nome,Telefone\nAna,21998765401x\nBia,123\n' };
    const res = await apiCall(ctx, 'POST', '/api/contacts/import', { cookie, file });
    expect(res.json().success).toBe(false);
    expect(await unread(cookie)).toBe(0);
  });
});

describe('accounts awaiting approval', () => {
  it('every administrator hears of a pending sign-up, and nobody else', async () => {
    const admins = [
      await createUser(ctx, { accountType: 'admin', planType: 'admin' }),
      await createUser(ctx, { accountType: 'admin', planType: 'admin' }),
    ];
    const adminCookies = await Promise.all(admins.map((u) => loginAs(ctx, u)));
    const before = await Promise.all(adminCookies.map(unread));
    const customer = await newCustomer(ctx);

    const n = Date.now().toString(36);
    const res = await apiCall(ctx, 'POST', '/api/auth/register', {
      payload: {
        name: 'Joana Prado',
        email: `joana${n}@example.com`,
        username: `joana${n}`,
        password: 'senha-segura',
        whatsappNumber: '21998765432',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const landing = await apiCall(ctx, 'POST', '/api/auth/signup', {
      payload: { name: 'Rui Lima', email: `rui${n}@example.com`, whatsappNumber: '21998765433' },
    });
    expect(landing.statusCode, landing.body).toBe(201);

    for (const [i, cookie] of adminCookies.entries()) {
      expect(await unread(cookie)).toBe(before[i] + 2);
      const [latest, previous] = (await list(cookie)).notifications;
      expect(previous).toMatchObject({
        kind: 'account_pending',
        title: 'Nova conta aguardando aprovação',
        body: `Joana Prado (joana${n}@example.com) criou uma conta e aguarda aprovação.`,
        link: '/admin/users',
      });
      expect(latest.body).toBe(`Rui Lima (rui${n}@example.com) criou uma conta e aguarda aprovação.`);
    }
    expect(await unread(customer.cookie)).toBe(0);
  });
});

describe('the WhatsApp connection', () => {
  it('a lost connection and its return are notified (with “Alertas do sistema” on) and logged', async () => {
    const a = await sender({ systemAlerts: true });
    // The connection drops without anyone asking (the simulator gives up, as Baileys does on a logout).
    await a.driver.disconnect();
    // The loss is a job after its grace time (the runner polls each second): room for a busy machine.
    const lost = await waitFor(
      () => list(a.cookie),
      (l) => l.notifications.length === 1,
      15_000,
    );
    expect(lost.notifications[0]).toMatchObject({
      kind: 'whatsapp_disconnected',
      title: 'WhatsApp desconectado',
      link: notificationLinks.whatsapp,
    });
    await connectSimulator(ctx, a.user.id, a.cookie);
    const back = await waitFor(
      () => list(a.cookie),
      (l) => l.notifications.length === 2,
      15_000,
    );
    expect(back.notifications[0]).toMatchObject({ kind: 'whatsapp_reconnected', title: 'WhatsApp reconectado' });
    // Connected once, even though the simulator reports 'connected' twice (without, then with its number).
    const kinds = (await activity(a.cookie)).events
      .map((e) => `${e.kind}:${e.actorId === null ? 'system' : 'user'}`)
      .filter((k) => k.startsWith('whatsapp_'));
    expect(kinds).toEqual(['whatsapp_connected:system', 'whatsapp_disconnected:system', 'whatsapp_connected:system']);
  });

  it('with “Alertas do sistema” off (the default) a loss is logged but not notified', async () => {
    const a = await sender();
    await a.driver.disconnect();
    await waitFor(
      async () => (await activity(a.cookie)).events[0]?.kind,
      (k) => k === 'whatsapp_disconnected',
    );
    expect(await unread(a.cookie)).toBe(0);
  });

  it('the account’s own disconnect is logged as the user’s, never notified as a loss', async () => {
    const a = await sender({ systemAlerts: true });
    const res = await apiCall(ctx, 'POST', '/api/whatsapp/disconnect', { cookie: a.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const event = await waitFor(
      async () => (await activity(a.cookie)).events[0],
      (e) => e?.kind === 'whatsapp_disconnected',
    );
    expect(event.actorId).toBe(a.user.id);
    await connectSimulator(ctx, a.user.id, a.cookie);
    await waitFor(
      async () => (await activity(a.cookie)).events[0]?.kind,
      (k) => k === 'whatsapp_connected',
    );
    expect(await unread(a.cookie)).toBe(0);
  });
});
