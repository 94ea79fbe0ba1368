import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { msg } from '../../../contract/messages';
import { settingsMsg } from '../../../contract/settings';
import { accountSettings, planActivations, users } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { type ApiMethod, apiCall, createUser, loginAs, newCustomer, TEST_PASSWORD } from '../../testing/test-app';
import { updateBusinessHours } from './business-hours.service';

const ctx = appPerFile();

const call = (method: ApiMethod, url: string, cookie: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });
/** Saves `body` at `url` (a settings page) and reads it back unchanged. */
async function expectSaved(cookie: string, url: string, body: object) {
  const res = await call('PUT', url, cookie, body);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual(body);
  expect((await call('GET', url, cookie)).json()).toEqual(body);
}
/** A demo account with an hour left. */
const demoAccount = () =>
  createUser(ctx, { accountType: 'demo', planType: 'demo', demoExpiresAt: new Date(Date.now() + 3_600_000) });
/** 'Salvar' on the profile form. */
const saveProfile = (cookie: string, name: string, email: string, phone: string, company = '') =>
  call('PUT', '/api/settings/profile', cookie, { name, email, phone, company });
/** 'Alterar senha': the current password, the new one and its confirmation (the new one unless given). */
const changePassword = (cookie: string, currentPassword: string, newPassword: string, confirmPassword = newPassword) =>
  call('POST', '/api/auth/change-password', cookie, { currentPassword, newPassword, confirmPassword });

const validWhatsapp = {
  autoReconnect: false,
  messageDelay: 5,
  dailyLimit: 300,
  respectBusinessHours: true,
  businessStart: '08:30',
  businessEnd: '17:45',
  channel: 'cloud',
};

describe('profile', () => {
  it('reads and saves name, e-mail, phone and company; /me shows the new name at once', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    const before = await call('GET', '/api/settings/profile', cookie);
    expect(before.json()).toEqual({ name: u.name, email: u.email, phone: u.whatsappNumber, company: '' });

    const body = {
      name: 'Joana Prado',
      email: `joana${u.id.slice(0, 8)}@empresa.com.br`,
      phone: '(21) 98888-1111',
      company: 'Prado & Filhos',
    };
    await expectSaved(cookie, '/api/settings/profile', body);
    expect((await call('GET', '/api/auth/me', cookie)).json()).toMatchObject({
      name: 'Joana Prado',
      email: body.email,
    });
  });

  it('keeps e-mails unique (409, pt-BR), case-insensitively', async () => {
    const a = await createUser(ctx);
    const b = await createUser(ctx);
    const cookie = await loginAs(ctx, b);
    const res = await saveProfile(cookie, b.name, a.email.toUpperCase(), '11988887777');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: msg.auth.emailTaken });
  });

  it('validates the fields with pt-BR messages', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    const res = await saveProfile(cookie, 'J', 'nao-e-email', '123', 'x'.repeat(101));
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({
      name: msg.validation.nameMin,
      email: msg.validation.email,
      phone: msg.validation.whatsappMin,
      company: settingsMsg.companyMax,
    });
    const letters = await saveProfile(cookie, 'Joana', 'j@example.com', 'abc1234567890');
    expect(letters.json().fieldErrors.phone).toBe(msg.validation.whatsappFormat);
    // An account without a phone (the configured admin) can still save its profile.
    const noPhone = await saveProfile(cookie, 'Joana', u.email, '');
    expect(noPhone.statusCode).toBe(200);
  });

  it('pending accounts may edit their profile; demo accounts only read it', async () => {
    const pending = await createUser(ctx, { accountType: 'pending', isActive: false });
    const pCookie = await loginAs(ctx, pending);
    expect((await call('GET', '/api/settings/profile', pCookie)).statusCode).toBe(200);
    const ok = await saveProfile(pCookie, 'Pendente Silva', pending.email, '11977776666', 'Loja');
    expect(ok.statusCode).toBe(200);

    const demo = await demoAccount();
    const dCookie = await loginAs(ctx, demo);
    expect((await call('GET', '/api/settings/profile', dCookie)).statusCode).toBe(200);
    const refused = await saveProfile(dCookie, 'Outro Nome', demo.email, '11977776666');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('DEMO_READ_ONLY');
    const pw = await changePassword(dCookie, TEST_PASSWORD, 'outra-senha-1');
    expect(pw.statusCode).toBe(403);
  });
});

describe('password change', () => {
  it('needs the current password, then ends every other session and keeps this one', async () => {
    const u = await createUser(ctx);
    const here = await loginAs(ctx, u);
    const elsewhere = await loginAs(ctx, u);

    const wrong = await changePassword(here, 'nao-e-essa', 'nova-senha-1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      message: settingsMsg.currentPasswordWrong,
      fieldErrors: { currentPassword: settingsMsg.currentPasswordWrong },
    });
    expect((await call('GET', '/api/auth/me', elsewhere)).statusCode).toBe(200);

    const res = await changePassword(here, TEST_PASSWORD, 'nova-senha-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: settingsMsg.passwordChanged });
    expect((await call('GET', '/api/auth/me', here)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', elsewhere)).statusCode).toBe(401);

    const old = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: u.username, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await loginAs(ctx, u, 'nova-senha-1');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row.passwordChangedAt).not.toBeNull();
  });

  it('validates the new password like registration and requires a matching confirmation', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    const short = await changePassword(cookie, TEST_PASSWORD, '123');
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors.newPassword).toBe(msg.validation.passwordMin);
    const mismatch = await changePassword(cookie, TEST_PASSWORD, 'nova-senha-1', 'nova-senha-2');
    expect(mismatch.json().fieldErrors).toEqual({ confirmPassword: settingsMsg.passwordMismatch });
    const empty = await changePassword(cookie, '', 'nova-senha-1');
    expect(empty.json().fieldErrors.currentPassword).toBe(settingsMsg.currentPasswordRequired);
    const same = await changePassword(cookie, TEST_PASSWORD, TEST_PASSWORD);
    expect(same.json().fieldErrors).toEqual({ newPassword: settingsMsg.passwordSame });
    // Nothing changed: the old password still works.
    await loginAs(ctx, u);
  });

  it('pending accounts may change their generated password', async () => {
    const u = await createUser(ctx, { accountType: 'pending', isActive: false });
    const cookie = await loginAs(ctx, u);
    const res = await changePassword(cookie, TEST_PASSWORD, 'minha-senha-9');
    expect(res.statusCode).toBe(200);
  });
});

describe('notification preferences', () => {
  it('start from the defaults (all on but system alerts) and are saved per account', async () => {
    const a = await createUser(ctx);
    const b = await createUser(ctx);
    const ca = await loginAs(ctx, a);
    const cb = await loginAs(ctx, b);
    const defaults = {
      emailNotifications: true,
      pushNotifications: true,
      campaignUpdates: true,
      systemAlerts: false,
      marketingEmails: true,
    };
    expect((await call('GET', '/api/settings/notifications', ca)).json()).toEqual(defaults);
    const changed = { ...defaults, systemAlerts: true, marketingEmails: false };
    await expectSaved(ca, '/api/settings/notifications', changed);
    expect((await call('GET', '/api/settings/notifications', cb)).json()).toEqual(defaults);
  });

  it('refuses missing or non-boolean values', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    const res = await call('PUT', '/api/settings/notifications', cookie, { emailNotifications: 'sim' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors.emailNotifications).toBe(settingsMsg.booleanInvalid);
  });
});

describe('WhatsApp sending settings', () => {
  it('start from the §9 defaults and are saved per account', async () => {
    const u = await createUser(ctx);
    const other = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    expect((await call('GET', '/api/settings/whatsapp', cookie)).json()).toEqual({
      autoReconnect: true,
      messageDelay: 2,
      dailyLimit: 1000,
      respectBusinessHours: true,
      businessStart: '09:00',
      businessEnd: '18:00',
      channel: 'personal',
    });
    await expectSaved(cookie, '/api/settings/whatsapp', validWhatsapp);
    const otherCookie = await loginAs(ctx, other);
    expect((await call('GET', '/api/settings/whatsapp', otherCookie)).json().messageDelay).toBe(2);
  });

  it('keeps the stored channel when a client sends only the six fields of SPEC §3', async () => {
    const { cookie } = await newCustomer(ctx);
    expect((await call('PUT', '/api/settings/whatsapp', cookie, validWhatsapp)).json().channel).toBe('cloud');
    const { channel: _channel, ...sixFields } = { ...validWhatsapp, messageDelay: 9 };
    const res = await call('PUT', '/api/settings/whatsapp', cookie, sixFields);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...validWhatsapp, messageDelay: 9, channel: 'cloud' });
  });

  it('refuses out-of-range values with pt-BR messages', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    const cases: Array<[object, string, string]> = [
      [{ messageDelay: 0 }, 'messageDelay', settingsMsg.messageDelayRange],
      [{ messageDelay: 61 }, 'messageDelay', settingsMsg.messageDelayRange],
      [{ messageDelay: 2.5 }, 'messageDelay', settingsMsg.messageDelayRange],
      [{ dailyLimit: 0 }, 'dailyLimit', settingsMsg.dailyLimitMin],
      [{ dailyLimit: -5 }, 'dailyLimit', settingsMsg.dailyLimitMin],
      [{ businessStart: '25:00' }, 'businessStart', settingsMsg.timeFormat],
      [{ businessEnd: '9h' }, 'businessEnd', settingsMsg.timeFormat],
      [{ businessStart: '18:00', businessEnd: '09:00' }, 'businessEnd', settingsMsg.businessOrder],
      [{ channel: 'sms' }, 'channel', settingsMsg.channelInvalid],
    ];
    for (const [patch, field, message] of cases) {
      const res = await call('PUT', '/api/settings/whatsapp', cookie, { ...validWhatsapp, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().fieldErrors[field], JSON.stringify(patch)).toBe(message);
    }
    // The limits themselves are accepted.
    for (const patch of [{ messageDelay: 1 }, { messageDelay: 60 }, { dailyLimit: 1 }]) {
      expect((await call('PUT', '/api/settings/whatsapp', cookie, { ...validWhatsapp, ...patch })).statusCode).toBe(
        200,
      );
    }
  });

  it('demo accounts read the settings but cannot save them', async () => {
    const demo = await demoAccount();
    const cookie = await loginAs(ctx, demo);
    expect((await call('GET', '/api/settings/whatsapp', cookie)).statusCode).toBe(200);
    expect((await call('PUT', '/api/settings/whatsapp', cookie, validWhatsapp)).json().code).toBe('DEMO_READ_ONLY');
  });
});

describe('business hours: one source for WhatsApp settings and the bot', () => {
  it('the WhatsApp settings write the hours the bot reads, with Monday to Friday', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    await ctx.database.db
      .insert(accountSettings)
      .values({ userId: u.id, businessDays: ['saturday'] })
      .onConflictDoNothing();
    await call('PUT', '/api/settings/whatsapp', cookie, {
      ...validWhatsapp,
      businessStart: '07:00',
      businessEnd: '15:00',
    });
    expect((await call('GET', '/api/bot-config', cookie)).json().businessHours).toEqual({
      start: '07:00',
      end: '15:00',
      days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    });
  });

  it('hours saved through the bot side show in the WhatsApp settings', async () => {
    const u = await createUser(ctx);
    const cookie = await loginAs(ctx, u);
    await updateBusinessHours(ctx.database.db, u.id, { start: '10:00', end: '20:00' });
    expect((await call('GET', '/api/settings/whatsapp', cookie)).json()).toMatchObject({
      businessStart: '10:00',
      businessEnd: '20:00',
      messageDelay: 2,
    });
  });
});

describe('recent plan activations (demo purchase notice)', () => {
  it('lists plan label and time of the last 30 days only, with no personal data', async () => {
    const db = ctx.database.db;
    const buyer = await createUser(ctx, { name: 'Comprador Secreto' });
    await db.delete(planActivations);
    await db.insert(planActivations).values([
      { userId: buyer.id, planType: 'professional', createdAt: new Date(Date.now() - 12 * 60_000) },
      { userId: buyer.id, planType: 'premium', createdAt: new Date(Date.now() - 31 * 86_400_000) },
    ]);
    const demo = await demoAccount();
    const res = await call('GET', '/api/plan-activations/recent', await loginAs(ctx, demo));
    expect(res.statusCode).toBe(200);
    const { activations } = res.json();
    expect(activations).toHaveLength(1);
    expect(activations[0].planLabel).toBe('Plano Profissional');
    expect(Date.now() - Date.parse(activations[0].activatedAt)).toBeGreaterThan(11 * 60_000);
    expect(Object.keys(activations[0]).sort()).toEqual(['activatedAt', 'planLabel']);
    expect(res.body).not.toContain(buyer.id);
    expect(res.body).not.toContain(buyer.name);
    expect(res.body).not.toContain(buyer.email);
  });

  it('is empty when nobody bought in the last 30 days, and closed to visitors', async () => {
    await ctx.database.db.delete(planActivations);
    const u = await createUser(ctx);
    const res = await call('GET', '/api/plan-activations/recent', await loginAs(ctx, u));
    expect(res.json()).toEqual({ activations: [] });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/plan-activations/recent' })).statusCode).toBe(401);
  });
});
