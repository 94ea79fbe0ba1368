import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationMsg } from '../../../contract/notifications';
import { rowsOf } from '../../db/rows';
import { contacts } from '../../db/schema';
import { notify } from '../../records/notify';
import { SmtpSink } from '../../testing/smtp-sink';
import {
  apiCall,
  connectSimulator,
  createTestApp,
  createUser,
  loginAs,
  newCustomer,
  setAccountSettings,
  type TestContext,
  waitFor,
} from '../../testing/test-app';
import { ConnectionAlerts } from './connection-alerts';

/**
 * The e-mails users expect, read from a real SMTP server on loopback: account approved (with the
 * login link), a campaign finished by the send loop or paused, the WhatsApp down for more than
 * 10 minutes (a shorter clock here) — each only when 'Notificações por email' and the kind's own
 * switch allow it.
 */
const PUBLIC_URL = 'https://painel.disparo.example';
let sink: SmtpSink;
let ctx: TestContext;

beforeAll(async () => {
  sink = await new SmtpSink().start();
  ctx = await createTestApp({ SMTP_URL: sink.url, PUBLIC_URL, WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 30, readMs: 60 },
    dispatcher: { tickMs: 20, timeScale: 0.001 },
  });
});
afterAll(async () => {
  await ctx.close();
  await sink.stop();
});

const db = () => ctx.database.db;
const sent = () => ctx.app.deps.mail.mailer.idle();
const log = { error: (obj: unknown) => console.error(obj) };

describe('account approved', () => {
  it('e-mails the owner of a pending account an administrator approves, with the login link', async () => {
    const admin = await createUser(ctx, { accountType: 'admin', planType: 'admin' });
    const adminCookie = await loginAs(ctx, admin);
    const pending = await createUser(ctx, { accountType: 'pending', isActive: false, name: 'Bruno & Filhos' });
    const approve = (id: string, payload: object) =>
      apiCall(ctx, 'PATCH', `/api/admin/users/${id}`, { cookie: adminCookie, payload });

    expect((await approve(pending.id, { isActive: true })).statusCode).toBe(200);
    const mail = await sink.waitFor(pending.email);
    expect(mail.subject).toBe('Sua conta no Disparo foi aprovada');
    expect(mail.text).toContain('Olá, Bruno & Filhos,');
    expect(mail.text).toContain(pending.username);
    expect(mail.text).toContain(`${PUBLIC_URL}/login`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/login"`);
    expect(mail.html).toContain('Bruno &amp; Filhos');

    // A later change of plan is no approval.
    expect((await approve(pending.id, { planType: 'premium' })).statusCode).toBe(200);
    // An account that turned e-mail notices off is approved without one.
    const quiet = await createUser(ctx, { accountType: 'pending', isActive: false });
    await setAccountSettings(ctx, quiet.id, { emailNotifications: false });
    expect((await approve(quiet.id, { isActive: true })).statusCode).toBe(200);
    await sent();
    expect(sink.to(pending.email)).toHaveLength(1);
    expect(sink.to(quiet.email)).toHaveLength(0);
  });
});

describe('campaigns', () => {
  async function finishCampaign(name: string, settings: Parameters<typeof setAccountSettings>[2] = {}) {
    const { user, cookie } = await newCustomer(ctx);
    await setAccountSettings(ctx, user.id, { respectBusinessHours: false, ...settings });
    await connectSimulator(ctx, user.id, cookie);
    await db()
      .insert(contacts)
      .values(
        ['+5521987654301', '+5521987654303'].map((phone, i) => ({
          userId: user.id,
          name: `Contato ${i}`,
          phone,
          isWhatsappActive: true,
        })),
      );
    const created = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: { name, message: 'Oi {{primeiro_nome}}!', targetType: 'contacts' },
    });
    const id = created.json().id as string;
    expect((await apiCall(ctx, 'POST', `/api/campaigns/${id}/send`, { cookie })).statusCode).toBe(200);
    await waitFor(
      async () =>
        rowsOf<{ status: string }>(await db().execute(sql`select status from campaigns where id = ${id}`))[0].status,
      (s) => s === 'completed',
      10_000,
    );
    return { user, id };
  }

  it('e-mails the end of a campaign the send loop finished, with the report link', async () => {
    const { user, id } = await finishCampaign('Promo <Natal>');
    const mail = await sink.waitFor(user.email);
    expect(mail.subject).toBe('Campanha concluída – Disparo');
    expect(mail.text).toContain('A campanha “Promo <Natal>” terminou: 2 mensagens enviadas.');
    expect(mail.text).toContain(`${PUBLIC_URL}/campaigns?report=${id}`);
    expect(mail.html).toContain('Promo &lt;Natal&gt;');
    expect(mail.html).toContain(`href="${PUBLIC_URL}/campaigns?report=${id}"`);
  });

  it('sends none when e-mail notices or campaign updates are off', async () => {
    const noEmail = await finishCampaign('Sem email', { emailNotifications: false });
    const noUpdates = await finishCampaign('Sem avisos', { campaignUpdates: false });
    await sent();
    expect(sink.to(noEmail.user.email)).toHaveLength(0);
    expect(sink.to(noUpdates.user.email)).toHaveLength(0);
  });

  it('e-mails a campaign the engine paused, as it notifies it', async () => {
    const { user } = await newCustomer(ctx);
    // The send loop's pause records this notification (server/sending/campaign-lifecycle.ts, haltCampaign).
    await notify(db(), log, user.id, {
      kind: 'campaign_paused',
      title: notificationMsg.campaignPaused.title,
      body: notificationMsg.campaignPaused.body('Black Friday', 'O WhatsApp limitou os envios deste número.'),
      link: '/campaigns?report=123',
    });
    const mail = await sink.waitFor(user.email);
    expect(mail.subject).toBe('Campanha pausada – Disparo');
    expect(mail.text).toContain('Campanha “Black Friday”. O WhatsApp limitou os envios deste número.');
    // Other notifications stay in the bell only.
    await notify(db(), log, user.id, { kind: 'conversation_handoff', title: 'Atendimento', body: 'x' });
    await sent();
    expect(sink.to(user.email)).toHaveLength(1);
  });
});

describe('WhatsApp disconnected', () => {
  const state = (isConnected: boolean, s: 'connected' | 'connecting' | 'disconnected') => ({
    phoneNumber: null,
    isConnected,
    state: s,
    qr: null,
  });
  const EMAIL_AFTER_MS = 150;

  async function dropFor(settings: Parameters<typeof setAccountSettings>[2], downMs: number, back = false) {
    const { user } = await newCustomer(ctx);
    await setAccountSettings(ctx, user.id, settings);
    const alerts = new ConnectionAlerts({
      db: db(),
      log,
      jobs: ctx.app.deps.jobs,
      lostAfterMs: 20,
      emailNotices: ctx.app.deps.mail.notices,
      emailAfterMs: EMAIL_AFTER_MS,
    });
    const on = (s: ReturnType<typeof state>) =>
      alerts.onConnection({ userId: user.id, connectionId: user.id, state: s });
    await on(state(true, 'connected'));
    await on(state(false, 'connecting'));
    await new Promise((r) => setTimeout(r, downMs));
    if (back) await on(state(true, 'connected'));
    await new Promise((r) => setTimeout(r, EMAIL_AFTER_MS));
    alerts.close();
    await sent();
    return user;
  }

  it('e-mails a connection still down after the delay, once, with “Alertas do sistema” on', async () => {
    const user = await dropFor({ systemAlerts: true }, EMAIL_AFTER_MS + 50);
    const mails = sink.to(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Seu WhatsApp está desconectado – Disparo');
    expect(mails[0].text).toContain('desconectado há mais de 10 minutos');
    expect(mails[0].text).toContain(`${PUBLIC_URL}/dashboard#whatsapp-connection`);
  });

  it('sends none when the connection is back in time, or the settings say no', async () => {
    const back = await dropFor({ systemAlerts: true }, 30, true);
    // 'Alertas do sistema' is off by default (SPEC §9).
    const defaults = await dropFor({}, EMAIL_AFTER_MS + 50);
    const noEmail = await dropFor({ systemAlerts: true, emailNotifications: false }, EMAIL_AFTER_MS + 50);
    for (const user of [back, defaults, noEmail]) expect(sink.to(user.email)).toHaveLength(0);
  });
});
