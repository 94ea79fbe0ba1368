import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundDelivery } from '../../testing/cloud-account';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import { apiCall, createTestApp, createUser, loginAs, type TestContext } from '../../testing/test-app';
import { signBody } from '../../whatsapp/cloud-api/webhook';

/** The reply pipeline through the signed Cloud API webhook, answered through the fake Graph API. */
let ctx: TestContext;
let graph: FakeGraphApi;

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  ctx = await createTestApp({
    GRAPH_API_URL: graph.url,
    GRAPH_API_VERSION: 'v26.0',
    PUBLIC_URL: 'https://app.example.com',
  });
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

const SECRET = 'segredo-do-app';

let accounts = 0;
async function cloudAccount() {
  // Each account its own number: a phone number id sends for one account only.
  const phoneNumberId = `10900000000${++accounts}`;
  const token = `EAAG-bot-${Math.random().toString(36).slice(2)}`;
  graph.phones.set(phoneNumberId, {
    token,
    display_phone_number: '551130009999',
    verified_name: 'Loja Bot',
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    status: 'CONNECTED',
    about: '',
    profile_picture_url: 'https://pps.whatsapp.net/v/foto.jpg',
    businessAccountId: '209',
  });
  const user = await createUser(ctx);
  const cookie = await loginAs(ctx, user);
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    apiCall(ctx, method, url, { cookie, payload });
  const configured = await call('POST', '/api/whatsapp-business/configure', {
    accessToken: token,
    phoneNumberId,
    businessAccountId: '209',
    appId: '123456',
    appSecret: SECRET,
  });
  expect(configured.statusCode, configured.body).toBe(200);
  const put = await call('PUT', '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay: 2,
    dailyLimit: 1000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
    channel: 'cloud',
  });
  expect(put.statusCode, put.body).toBe(200);
  const webhookPath: string = configured.json().config.webhookPath;
  let n = 0;
  const deliver = async (from: string, message: Record<string, unknown>, id = `wamid.IN${++n}${Date.now()}`) => {
    const body = inboundDelivery(
      { phoneNumberId, displayPhoneNumber: '551130009999' },
      from,
      id,
      message,
      'Ana Cliente',
    );
    return ctx.app.inject({
      method: 'POST',
      url: webhookPath,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
      payload: body,
    });
  };
  return { user, call, deliver };
}

/** The webhook answers first: waits for the deliveries to reach the chatbot, then for its replies. */
const settle = async () => {
  await ctx.app.deps.cloudApi.settled();
  await ctx.app.deps.chatbot.idle();
};

const sentTo = (to: string) => graph.sent.filter((m) => m.to === to);

describe('chatbot on the Cloud API', () => {
  it('answers a webhook message with real reply buttons, once however often Meta delivers it', async () => {
    const { call, deliver } = await cloudAccount();
    const saved = await call('POST', '/api/bot-config', {
      autoReplies: [
        {
          trigger: 'preço',
          response: 'Temos planos a partir de R$ 10.',
          type: 'interactive',
          buttons: [
            { text: 'Ver planos', type: 'quick_reply', value: 'planos' },
            { text: 'Site', type: 'url', value: 'https://loja.example.com' },
          ],
        },
        { trigger: 'planos', response: 'Básico, Pro e Premium.' },
      ],
    });
    expect(saved.statusCode).toBe(200);
    const from = '5511987650042';
    const id = 'wamid.PRECO-1';
    for (let i = 0; i < 3; i++) {
      const res = await deliver(from, { type: 'text', text: { body: 'Qual o PREÇO?' } }, id);
      expect(res.statusCode).toBe(200);
    }
    await settle();
    expect(sentTo(from)).toHaveLength(1);
    expect(sentTo(from)[0]).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Temos planos a partir de R$ 10.\n\n🔗 Site: https://loja.example.com' },
        action: { buttons: [{ type: 'reply', reply: { id: 'kw:planos', title: 'Ver planos' } }] },
      },
    });

    // Pressing the button answers its keyword's rule.
    await deliver(from, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'kw:planos', title: 'Ver planos' } },
    });
    await settle();
    expect(sentTo(from).at(-1)).toMatchObject({ type: 'text', text: { body: 'Básico, Pro e Premium.' } });

    // The contact was created with its WhatsApp profile name.
    const contacts = (await call('GET', '/api/contacts?search=987650042')).json();
    expect(JSON.stringify(contacts)).toContain('Ana Cliente');
  });

  it('answers the webhook before the reply is sent', async () => {
    const { call, deliver } = await cloudAccount();
    await call('POST', '/api/bot-config', { autoReplies: [{ keyword: 'oi', response: 'Olá!' }] });
    let release = () => {};
    graph.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      // Meta gets its 200 while the reply's Graph call is still held open.
      const res = await deliver('5511987650043', { type: 'text', text: { body: 'oi' } });
      expect(res.statusCode).toBe(200);
      expect(sentTo('5511987650043')).toEqual([]);
    } finally {
      release();
      graph.hold = null;
    }
    await settle();
    expect(sentTo('5511987650043')).toEqual([
      expect.objectContaining({ type: 'text', text: expect.objectContaining({ body: 'Olá!' }) }),
    ]);
  });
});
