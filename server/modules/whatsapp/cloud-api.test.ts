import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { cloudApiMsg } from '../../../contract/cloud-api';
import { campaignRecipients, contacts, whatsappBusinessAccounts, whatsappInboundMessages } from '../../db/schema';
import { encryptSecret } from '../../lib/crypto';
import { appWithGraphPerFile } from '../../testing/app-per-file';
import { insertCampaign } from '../../testing/campaigns';
import { cloudWebhookBody } from '../../testing/cloud-account';
import { type ApiMethod, apiCall, createUser, loginAs, waitFor } from '../../testing/test-app';
import { signBody } from '../../whatsapp/cloud-api/webhook';
import type { Driver } from '../../whatsapp/driver';
import { updateAccountSettings } from '../settings';

// The fake's image files are on loopback, which only this setting lets the server download.
const { ctx, graph } = appWithGraphPerFile({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' });
let seq = 0;

/** A customer with its own number at the fake Graph API. */
async function setup() {
  const n = ++seq;
  const phoneNumberId = `10${n}00000000${n}`;
  const token = `EAAG-token-${n}-${Math.random().toString(36).slice(2)}`;
  graph.addPhone(phoneNumberId, token, `551130000${String(n).padStart(3, '0')}`, `Loja ${n}`, {
    about: 'Atendimento de seg a sex',
    profile_picture_url: 'https://pps.whatsapp.net/v/foto.jpg',
    businessAccountId: `20${n}`,
  });
  const user = await createUser(ctx);
  const cookie = await loginAs(ctx, user);
  return { user, cookie, phoneNumberId, token, wabaId: `20${n}` };
}

const req = (method: ApiMethod, url: string, cookie: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

async function configured(appSecret?: string) {
  const s = await setup();
  const res = await req('POST', '/api/whatsapp-business/configure', s.cookie, {
    accessToken: s.token,
    phoneNumberId: s.phoneNumberId,
    businessAccountId: s.wabaId,
    appId: '123456',
    ...(appSecret ? { appSecret } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...s, config: res.json().config };
}

async function cloudDriver(userId: string): Promise<Driver> {
  await updateAccountSettings(ctx.database.db, userId, { channel: 'cloud' });
  const driver = await ctx.app.deps.drivers.get(userId);
  if (!driver) throw new Error('no cloud driver');
  expect(driver.kind).toBe('cloud');
  return driver;
}

describe('configure', () => {
  it('requires the access token and the phone number id (SPEC §5)', async () => {
    const { cookie } = await setup();
    const res = await req('POST', '/api/whatsapp-business/configure', cookie, { accessToken: '', phoneNumberId: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toMatchObject({
      accessToken: 'Access Token é obrigatório',
      phoneNumberId: 'Phone Number ID é obrigatório',
    });
  });

  it('validates the credentials against the Graph API before saving', async () => {
    const s = await setup();
    const bad = await req('POST', '/api/whatsapp-business/configure', s.cookie, {
      accessToken: 'token-errado',
      phoneNumberId: s.phoneNumberId,
    });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().message).toMatch(/^Credenciais inválidas/);
    const rows = await ctx.database.db
      .select()
      .from(whatsappBusinessAccounts)
      .where(eq(whatsappBusinessAccounts.userId, s.user.id));
    expect(rows).toHaveLength(0);
    const lookup = graph.requests.findLast((r) => r.path === `/v26.0/${s.phoneNumberId}`);
    expect(lookup?.authorization).toBe('Bearer token-errado');
  });

  it('refuses a phone number id another account sends through (409, pt-BR); its own account may save it again', async () => {
    const first = await configured();
    const other = await setup();
    const taken = await req('POST', '/api/whatsapp-business/configure', other.cookie, {
      accessToken: first.token,
      phoneNumberId: first.phoneNumberId,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ success: false, code: 'CONFLICT', message: cloudApiMsg.phoneNumberInUse });
    const again = await req('POST', '/api/whatsapp-business/configure', first.cookie, {
      accessToken: first.token,
      phoneNumberId: first.phoneNumberId,
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('saves tokens encrypted and never returns them', async () => {
    const s = await configured('app-secret-1');
    expect(s.config).toMatchObject({
      configured: true,
      phoneNumberId: s.phoneNumberId,
      businessAccountId: s.wabaId,
      appId: '123456',
      hasAppSecret: true,
      webhookUrl: expect.stringMatching(/^https:\/\/app\.example\.com\/api\/whatsapp-business\/webhook\/[0-9a-f]{32}$/),
      verifyToken: expect.any(String),
    });
    const [row] = await ctx.database.db
      .select()
      .from(whatsappBusinessAccounts)
      .where(eq(whatsappBusinessAccounts.userId, s.user.id));
    expect(row.accessToken).not.toContain(s.token);
    expect(row.appSecret).not.toContain('app-secret-1');
    const view = await req('GET', '/api/whatsapp-business/config', s.cookie);
    expect(view.body).not.toContain(s.token);
    expect(view.body).not.toContain('app-secret-1');
    expect(view.json().verifyToken).toBe(s.config.verifyToken);
  });
});

describe('health, profile and templates', () => {
  it('answers not configured, then healthy with the number and quality rating', async () => {
    const s = await setup();
    expect((await req('GET', '/api/whatsapp-business/health', s.cookie)).json()).toMatchObject({
      healthy: false,
      configured: false,
      message: 'API Não Configurada',
    });
    expect((await req('GET', '/api/whatsapp-business/profile', s.cookie)).statusCode).toBe(409);
    await req('POST', '/api/whatsapp-business/configure', s.cookie, {
      accessToken: s.token,
      phoneNumberId: s.phoneNumberId,
    });
    const health = (await req('GET', '/api/whatsapp-business/health', s.cookie)).json();
    expect(health).toMatchObject({ healthy: true, configured: true, qualityRating: 'GREEN', webhookReady: false });
    expect(health.phoneNumber).toMatch(/^\+55 11 3000-0\d{3}$/);
    expect(health.message).toMatch(/App Secret/);
  });

  it('tells what a fresh check (Verificar) found: display name, messaging limit and when it asked', async () => {
    const s = await configured();
    const first = (await req('GET', '/api/whatsapp-business/health?fresh=1', s.cookie)).json();
    expect(first).toMatchObject({
      healthy: true,
      phoneNumber: expect.stringMatching(/^\+55 11 3000-/),
      displayName: `Loja ${seq}`,
      qualityRating: 'GREEN',
      messagingLimit: null,
    });
    expect(Date.parse(first.checkedAt)).toBeGreaterThan(Date.now() - 60_000);

    const phone = graph.phones.get(s.phoneNumberId);
    if (phone) phone.whatsapp_business_manager_messaging_limit = 'TIER_250';
    // The 10-second poll answers from the short cache; 'Verificar' asks the Graph API again.
    const polled = (await req('GET', '/api/whatsapp-business/health', s.cookie)).json();
    expect(polled).toMatchObject({ messagingLimit: null, checkedAt: first.checkedAt });
    await new Promise((r) => setTimeout(r, 5));
    const fresh = (await req('GET', '/api/whatsapp-business/health?fresh=1', s.cookie)).json();
    expect(fresh.messagingLimit).toBe(250);
    expect(Date.parse(fresh.checkedAt)).toBeGreaterThan(Date.parse(first.checkedAt));

    // A refused token: what is wrong, in pt-BR, and nothing about the number.
    if (phone) phone.token = 'revogado';
    const refused = (await req('GET', '/api/whatsapp-business/health?fresh=1', s.cookie)).json();
    expect(refused).toMatchObject({ healthy: false, configured: true, phoneNumber: null });
    expect(refused.message).toBe('O Access Token foi recusado pela Graph API. Configure a API novamente.');
    expect(refused.displayName).toBeUndefined();
  });

  it('answers the profile of SPEC §3 from the Graph API', async () => {
    const s = await configured();
    const res = await req('GET', '/api/whatsapp-business/profile', s.cookie);
    expect(res.json()).toEqual({
      success: true,
      profile: {
        profilePicture: 'https://pps.whatsapp.net/v/foto.jpg',
        name: `Loja ${seq}`,
        verified: true,
        phone: expect.stringMatching(/^\+55 11 3000-/),
        status: 'CONNECTED',
        qualityRating: 'GREEN',
        // The fake number reports no messaging limit: unknown, said so.
        messagingLimit: null,
      },
    });
    expect(graph.requests.some((r) => r.path === `/v26.0/${s.phoneNumberId}/whatsapp_business_profile`)).toBe(true);
    // Once Meta reports one, the profile carries it.
    const phone = graph.phones.get(s.phoneNumberId);
    if (phone) phone.whatsapp_business_manager_messaging_limit = 'TIER_2K';
    const again = await req('GET', '/api/whatsapp-business/profile', s.cookie);
    expect(again.json().profile.messagingLimit).toBe(2000);
  });

  it('lists the account’s templates', async () => {
    const s = await configured();
    graph.templates.set(s.wabaId, [
      {
        name: 'boas_vindas',
        language: 'pt_BR',
        status: 'APPROVED',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', text: 'Olá' },
          { type: 'BODY', text: 'Oi {{1}}, seu cupom é {{2}}.' },
        ],
      },
    ]);
    const res = await req('GET', '/api/whatsapp-business/templates', s.cookie);
    expect(res.json()).toEqual({
      templates: [
        {
          name: 'boas_vindas',
          language: 'pt_BR',
          status: 'APPROVED',
          category: 'MARKETING',
          body: 'Oi {{1}}, seu cupom é {{2}}.',
          variables: 2,
        },
      ],
    });
  });
});

describe('campaigns on the Cloud API', () => {
  it('send the chosen template with each recipient’s values, and text to a campaign without one', async () => {
    const s = await configured();
    await updateAccountSettings(ctx.database.db, s.user.id, { channel: 'cloud', respectBusinessHours: false });
    await ctx.database.db.insert(contacts).values([
      { userId: s.user.id, name: 'Ana Souza', phone: '+5521998765431', email: 'ana@example.com' },
      { userId: s.user.id, name: 'Bruno Lima', phone: '+5521998765433' },
    ]);
    const created = await req('POST', '/api/campaigns', s.cookie, {
      name: 'Modelo',
      message: 'Oi {{primeiro_nome}}',
      targetType: 'contacts',
      templateName: 'boas_vindas',
      templateLanguage: 'pt_BR',
      templateVariables: [{ field: 'primeiro_nome' }, { text: 'NATAL10' }],
    });
    expect(created.statusCode, created.body).toBe(200);
    await req('POST', `/api/campaigns/${created.json().id}/send`, s.cookie);
    const sent = await waitFor(
      async () => graph.sent.filter((m) => m.type === 'template' && (m.to as string).startsWith('5521998765')),
      (list) => list.length === 2,
      8000,
    );
    const ana = sent.find((m) => m.to === '5521998765431');
    expect(ana?.template).toEqual({
      name: 'boas_vindas',
      language: { code: 'pt_BR' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana' },
            { type: 'text', text: 'NATAL10' },
          ],
        },
      ],
    });
    const done = await waitFor(
      async () => (await req('GET', `/api/campaigns/${created.json().id}`, s.cookie)).json(),
      (c) => c.status === 'completed',
      8000,
    );
    expect(done.messagesSent).toBe(2);
  });
});

describe('sending through the Cloud API', () => {
  it('sends text, image by uploaded media id, reply buttons, a CTA URL, a numbered menu and templates', async () => {
    const s = await configured();
    const driver = await cloudDriver(s.user.id);
    const to = '5511987650001';
    const sentTo = () => graph.sent.filter((m) => m.to === to);

    const text = await driver.send('+55 11 98765-0001', { kind: 'text', text: 'Olá!' });
    expect(text.providerMessageId).toMatch(/^wamid\./);
    expect(sentTo().at(-1)).toMatchObject({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      type: 'text',
      text: { body: 'Olá!' },
    });

    await driver.send(to, {
      kind: 'image',
      image: { data: Buffer.from('fake-png'), mimeType: 'image/png' },
      caption: 'Promo',
    });
    expect(graph.media.at(-1)).toMatchObject({ phoneNumberId: s.phoneNumberId, type: 'image/png' });
    expect(sentTo().at(-1)).toMatchObject({
      type: 'image',
      image: { id: expect.stringMatching(/^media-/), caption: 'Promo' },
    });
    expect(JSON.stringify(sentTo().at(-1))).not.toContain('link');

    await driver.send(to, {
      kind: 'interactive',
      text: 'Escolha',
      buttons: [
        { id: 'a', text: 'Sim', type: 'quick_reply', value: 'sim' },
        { id: 'b', text: 'Não', type: 'quick_reply', value: 'nao' },
        { id: 'c', text: 'Talvez mais tarde, obrigado', type: 'quick_reply', value: 'talvez' },
      ],
    });
    expect(sentTo().at(-1)).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Escolha' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'a', title: 'Sim' } },
            { type: 'reply', reply: { id: 'b', title: 'Não' } },
            { type: 'reply', reply: { id: 'c', title: 'Talvez mais tarde, o' } },
          ],
        },
      },
    });

    await driver.send(to, {
      kind: 'interactive',
      text: 'Veja o site',
      buttons: [{ id: 'u', text: 'Abrir site', type: 'url', value: 'https://example.com' }],
    });
    expect(sentTo().at(-1)).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        action: { name: 'cta_url', parameters: { display_text: 'Abrir site', url: 'https://example.com' } },
      },
    });

    await driver.send(to, {
      kind: 'interactive',
      text: 'Fale conosco',
      buttons: [
        { id: 'p', text: 'Ligar', type: 'phone', value: '+5511999990000' },
        { id: 'q', text: 'Preços', type: 'quick_reply', value: 'precos' },
      ],
    });
    // Quick replies stay real buttons; a phone number is written in the text.
    expect(sentTo().at(-1)).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Fale conosco\n\n📞 Ligar: +5511999990000' },
        action: { buttons: [{ type: 'reply', reply: { id: 'q', title: 'Preços' } }] },
      },
    });

    // Two links and no quick reply: a numbered menu.
    await driver.send(to, {
      kind: 'interactive',
      text: 'Nossos canais',
      buttons: [
        { id: 'u1', text: 'Site', type: 'url', value: 'https://example.com' },
        { id: 'u2', text: 'Loja', type: 'url', value: 'https://loja.example.com' },
      ],
    });
    expect(sentTo().at(-1)).toMatchObject({ type: 'text', text: { body: expect.stringContaining('2. Loja') } });

    // An image by URL is fetched by the server and uploaded too; interactive messages carry it as a header.
    const uploads = graph.media.length;
    await driver.send(to, {
      kind: 'interactive',
      text: 'Oferta',
      imageUrl: `${graph.url}/files/oferta.png`,
      buttons: [{ id: 'y', text: 'Quero', type: 'quick_reply', value: 'quero' }],
    });
    expect(graph.media.length).toBe(uploads + 1);
    expect(graph.media.at(-1)?.type).toBe('image/png');
    expect(sentTo().at(-1)).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button', header: { type: 'image', image: { id: expect.stringMatching(/^media-/) } } },
    });

    await driver.send(to, { kind: 'template', name: 'boas_vindas', language: 'pt_BR' });
    expect(sentTo().at(-1)).toMatchObject({
      type: 'template',
      template: { name: 'boas_vindas', language: { code: 'pt_BR' } },
    });
  });

  it('maps each Graph API error code to what the sender must do', async () => {
    const s = await configured();
    const driver = await cloudDriver(s.user.id);
    const cases: Array<[number, object]> = [
      [130429, { kind: 'transient', retryAfterMs: 60_000, providerCode: 130429 }],
      [131056, { kind: 'transient', retryAfterMs: 300_000, providerCode: 131056 }],
      [131047, { kind: 'template_required', providerCode: 131047 }],
      [131026, { kind: 'permanent', providerCode: 131026 }],
    ];
    for (const [code, expected] of cases) {
      const to = `55119000${code}`;
      graph.recipientErrors.set(to, code);
      await expect(driver.send(to, { kind: 'text', text: 'x' }), String(code)).rejects.toMatchObject(expected);
    }
    expect((await req('GET', '/api/whatsapp-business/health?fresh=1', s.cookie)).json().healthy).toBe(true);

    // 190: the token is no longer valid — health turns false and the account has no sending driver.
    graph.recipientErrors.set('5511900000190', 190);
    await expect(driver.send('5511900000190', { kind: 'text', text: 'x' })).rejects.toMatchObject({ kind: 'auth' });
    expect(await ctx.app.deps.drivers.get(s.user.id)).toBeNull();
    const phone = graph.phones.get(s.phoneNumberId);
    if (phone) phone.token = 'revoked';
    const health = (await req('GET', '/api/whatsapp-business/health', s.cookie)).json();
    expect(health).toMatchObject({ healthy: false, configured: true });
    expect(health.message).toMatch(/Access Token foi recusado/);
  });
});

describe('sending channel', () => {
  it('reports which channel sends and whether it is ready', async () => {
    const s = await setup();
    const channel = async () => (await req('GET', '/api/whatsapp/channel', s.cookie)).json();
    expect(await channel()).toEqual({
      channel: 'personal',
      ready: false,
      personal: { connected: false, phoneNumber: null },
      cloud: { configured: false, phoneNumber: null },
    });
    await req('POST', '/api/whatsapp-business/configure', s.cookie, {
      accessToken: s.token,
      phoneNumberId: s.phoneNumberId,
    });
    await updateAccountSettings(ctx.database.db, s.user.id, { channel: 'cloud' });
    expect(await channel()).toMatchObject({
      channel: 'cloud',
      ready: true,
      cloud: { configured: true, phoneNumber: expect.stringMatching(/^\+55 11 3000-/) },
    });
  });
});

describe('webhook', () => {
  const keyOf = (url: string) => url.split('/').at(-1) as string;

  it('answers Meta’s verification with the challenge only for the right verify token', async () => {
    const s = await configured('segredo-app');
    const path = `/api/whatsapp-business/webhook/${keyOf(s.config.webhookUrl)}`;
    const ok = await ctx.app.inject({
      method: 'GET',
      url: `${path}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(s.config.verifyToken)}&hub.challenge=1158201444`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await ctx.app.inject({
      method: 'GET',
      url: `${path}?hub.mode=subscribe&hub.verify_token=outro&hub.challenge=1`,
    });
    expect(wrong.statusCode).toBe(403);
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: `/api/whatsapp-business/webhook/${'0'.repeat(32)}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`,
    });
    expect(unknown.statusCode).toBe(404);
  });

  function delivery(phoneNumberId: string, wamidOut: string) {
    return cloudWebhookBody('WABA', {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '551130000000', phone_number_id: phoneNumberId },
      contacts: [{ profile: { name: 'Ana' }, wa_id: '5511987654321' }],
      messages: [
        {
          from: '5511987654321',
          id: `wamid.IN${wamidOut}`,
          timestamp: '1763800000',
          type: 'text',
          text: { body: 'Quero saber o preço' },
        },
        {
          from: '5511987654321',
          id: `wamid.BTN${wamidOut}`,
          timestamp: '1763800001',
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'a', title: 'Sim' } },
        },
      ],
      statuses: [{ id: wamidOut, status: 'delivered', timestamp: '1763800002', recipient_id: '5511987654321' }],
    });
  }

  it('refuses deliveries without an app secret or with a bad signature, and applies a replay once', async () => {
    const noSecret = await configured();
    const refused = await ctx.app.inject({
      method: 'POST',
      url: noSecret.config.webhookPath,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody('{}', 'x') },
      payload: '{}',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/App Secret/);

    const s = await configured('segredo-app');
    const driver = await cloudDriver(s.user.id);
    const { providerMessageId } = await driver.send('5511987654321', { kind: 'text', text: 'Oferta' });
    const db = ctx.database.db;
    const campaign = await insertCampaign(db, { userId: s.user.id, name: 'C', message: 'Oferta' }, [
      { recipient: '5511987654321', status: 'sent', providerMessageId },
    ]);
    const inbound: Array<{ text: string; buttonId?: string }> = [];
    driver.on('inbound', (m) => inbound.push({ text: m.text, buttonId: m.buttonId }));

    const body = delivery(s.phoneNumberId, providerMessageId);
    const post = (signature: string) =>
      ctx.app.inject({
        method: 'POST',
        url: s.config.webhookPath,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        payload: body,
      });

    expect((await post(signBody(body, 'outro-segredo'))).statusCode).toBe(403);
    expect((await post('sha256=00')).statusCode).toBe(403);
    // The signature covers the raw bytes: the same JSON re-serialised differently does not pass.
    expect((await post(signBody(JSON.stringify(JSON.parse(body), null, 1), 'segredo-app'))).statusCode).toBe(403);
    expect(inbound).toEqual([]);

    const first = await post(signBody(body, 'segredo-app'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, applied: 3 });
    const replay = await post(signBody(body, 'segredo-app'));
    expect(replay.json()).toEqual({ success: true, applied: 0 });

    await ctx.app.deps.cloudApi.settled();
    expect(inbound).toEqual([{ text: 'Quero saber o preço' }, { text: 'Sim', buttonId: 'a' }]);
    const rows = () => db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.userId, s.user.id));
    await waitFor(rows, (r) => r.length === 2);
    expect((await rows()).every((r) => r.channel === 'cloud' && r.fromPhone === '5511987654321')).toBe(true);
    await waitFor(
      () =>
        db
          .select({ s: campaignRecipients.status })
          .from(campaignRecipients)
          .where(eq(campaignRecipients.campaignId, campaign.id))
          .then((r) => r[0].s),
      (st) => st === 'delivered',
    );
  });

  it('applies each event of a burst once, even delivered twice at once, and honours an app secret changed elsewhere', async () => {
    const s = await configured('segredo-app');
    const driver = await cloudDriver(s.user.id);
    const inbound: string[] = [];
    driver.on('inbound', (m) => inbound.push(m.providerMessageId));
    const { providerMessageId } = await driver.send('5511987654321', { kind: 'text', text: 'Oi' });
    const body = delivery(s.phoneNumberId, providerMessageId);
    const post = (secret: string) =>
      ctx.app.inject({
        method: 'POST',
        url: s.config.webhookPath,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, secret) },
        payload: body,
      });
    // Meta repeats a delivery while the first is still in flight: one of them applies it.
    const burst = await Promise.all(Array.from({ length: 5 }, () => post('segredo-app')));
    expect(burst.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(burst.reduce((sum, r) => sum + r.json().applied, 0)).toBe(3);
    await ctx.app.deps.cloudApi.settled();
    expect(inbound).toHaveLength(2);

    // Another server process saves a new app secret: the next delivery signed with it is taken.
    await ctx.database.db
      .update(whatsappBusinessAccounts)
      .set({ appSecret: encryptSecret(ctx.app.deps.config.ENCRYPTION_KEY, 'segredo-novo') })
      .where(eq(whatsappBusinessAccounts.userId, s.user.id));
    const fresh = delivery(s.phoneNumberId, `${providerMessageId}-2`);
    const signed = (secret: string) =>
      ctx.app.inject({
        method: 'POST',
        url: s.config.webhookPath,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(fresh, secret) },
        payload: fresh,
      });
    expect((await signed('segredo-novo')).json()).toEqual({ success: true, applied: 3 });
    expect((await signed('segredo-app')).statusCode).toBe(403);
  });

  it('answers before recording; while records fail, answers 503 until they work again, and loses nothing', async () => {
    const s = await configured('segredo-app');
    const driver = await cloudDriver(s.user.id);
    const inbound: string[] = [];
    driver.on('inbound', (m) => inbound.push(m.providerMessageId));
    const post = (body: string) =>
      ctx.app.inject({
        method: 'POST',
        url: s.config.webhookPath,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, 'segredo-app') },
        payload: body,
      });
    const first = delivery(s.phoneNumberId, 'wamid.QUEDA-1');
    const second = delivery(s.phoneNumberId, 'wamid.QUEDA-2');
    // The database stops taking the records (as a dropped connection does).
    const { eventKeys } = ctx.app.deps.cloudApi as unknown as {
      eventKeys: { record: (...args: unknown[]) => Promise<unknown> };
    };
    const failing = vi.spyOn(eventKeys, 'record').mockRejectedValue(new Error('Connection terminated unexpectedly'));
    try {
      // Answered at once, before its record: Meta will not deliver it again, so it waits in memory.
      expect((await post(first)).json()).toEqual({ success: true, applied: 3 });
      await waitFor(
        async () => failing.mock.calls.length,
        (n) => n >= 1,
      );
      await new Promise((r) => setImmediate(r));
      // Now known: the next delivery is answered only once recorded, 503 here, so Meta delivers it again.
      const refused = await post(second);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ success: false, code: 'UNAVAILABLE' });
      expect(inbound).toEqual([]);
    } finally {
      failing.mockRestore();
    }
    // The database is back: the first delivery is recorded and handed over by itself (retried after
    // 500 ms), Meta's new delivery of the second is taken, and a repeat of either applies nothing.
    await waitFor(
      async () => inbound.length,
      (n) => n === 2,
    );
    expect((await post(second)).json()).toEqual({ success: true, applied: 3 });
    expect((await post(first)).json()).toEqual({ success: true, applied: 0 });
    await ctx.app.deps.cloudApi.settled();
    expect(inbound).toEqual([
      'wamid.INwamid.QUEDA-1',
      'wamid.BTNwamid.QUEDA-1',
      'wamid.INwamid.QUEDA-2',
      'wamid.BTNwamid.QUEDA-2',
    ]);
  });
});
