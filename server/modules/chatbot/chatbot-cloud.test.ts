import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appWithGraphPerFile } from '../../testing/app-per-file';
import { PRICE_RULES_WITH_BUTTONS } from '../../testing/bot-rules';
import { cloudCustomer } from '../../testing/cloud-account';
import { apiCall } from '../../testing/test-app';

/** The reply pipeline through the signed Cloud API webhook, answered through the fake Graph API. */
const { ctx, graph } = appWithGraphPerFile();

const SECRET = 'segredo-do-app';

let accounts = 0;
async function cloudAccount() {
  // Each account its own number: a phone number id sends for one account only.
  const phoneNumberId = `10900000000${++accounts}`;
  const { user, call, cookie, ...number } = await cloudCustomer(ctx, graph, {
    phoneNumberId,
    displayPhoneNumber: '551130009999',
    verifiedName: 'Loja Bot',
    businessAccountId: '209',
    appSecret: SECRET,
    profileName: 'Ana Cliente',
  });
  let n = 0;
  const deliver = (from: string, message: Record<string, unknown>, id = `wamid.IN${++n}${Date.now()}`) =>
    number.deliver(from, message, id);
  return { user, call, cookie, deliver, phoneNumberId };
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
      autoReplies: PRICE_RULES_WITH_BUTTONS,
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

  it('answers a document rule by the media id it uploaded once, with its name and caption', async () => {
    const { call, cookie, deliver, phoneNumberId } = await cloudAccount();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(10_000), Buffer.from('\n%%EOF\n')]);
    const uploaded = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name: 'Cardápio.pdf', data: pdf } });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const id = /([0-9a-f-]{36})$/i.exec(uploaded.json().url as string)?.[1] as string;
    const saved = await call('POST', '/api/bot-config/auto-replies', {
      trigger: 'cardapio',
      response: 'Nosso cardápio',
      type: 'document',
      mediaUrl: `upload:${id}`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const before = graph.media.filter((m) => m.phoneNumberId === phoneNumberId).length;
    for (const from of ['5511987650051', '5511987650052']) {
      await deliver(from, { type: 'text', text: { body: 'cardápio' } });
      await settle();
    }
    for (const from of ['5511987650051', '5511987650052']) {
      expect(sentTo(from)).toEqual([
        expect.objectContaining({
          type: 'document',
          document: { id: expect.any(String), caption: 'Nosso cardápio', filename: 'Cardápio.pdf' },
        }),
      ]);
    }
    // Uploaded to Meta once for the number, then sent by its media id.
    expect(graph.media.filter((m) => m.phoneNumberId === phoneNumberId).length - before).toBe(1);
    expect(sentTo('5511987650051')[0].document).toEqual(sentTo('5511987650052')[0].document);
  });
});
