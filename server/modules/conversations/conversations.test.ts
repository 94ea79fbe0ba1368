import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../contract/conversations';
import { HANDOFF_REPLY } from '../../chatbot/steps';
import { appWithGraphPerFile } from '../../testing/app-per-file';
import { PRICE_RULES_WITH_BUTTONS } from '../../testing/bot-rules';
import { cloudCustomer } from '../../testing/cloud-account';
import { apiCall, connectSimulator, newCustomer, newCustomerWithCalls } from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

/**
 * 'Conversas' shows what the contact saw and answered: the buttons of a bot reply (a numbered menu
 * on a personal number, real buttons on the Cloud API) and the option an answer chose.
 */
const { ctx, graph } = appWithGraphPerFile(
  { WHATSAPP_DRIVER: 'simulator' },
  { simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 }, dispatcher: { autoStart: false } },
);

const SUPPORT_BUTTONS = [
  { text: 'Ligar para suporte', type: 'phone', value: '5511999999999' },
  { text: 'Central de ajuda', type: 'url', value: 'https://www.exemplo.com.br/ajuda' },
  { text: 'Falar com atendente', type: 'quick_reply', value: 'atendente' },
] as const;

type Shown = Pick<ConversationMessage, 'direction' | 'source' | 'text' | 'buttons' | 'choice'>;
const shown = (messages: ConversationMessage[]): Shown[] =>
  messages.map(({ direction, source, text, buttons, choice }) => ({
    direction,
    source,
    text,
    ...(buttons ? { buttons } : {}),
    ...(choice ? { choice } : {}),
  }));

describe('conversation messages with buttons (personal number, simulator)', () => {
  it('returns the numbered menu a bot reply went as, and "3" with the option it chose', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    const saved = await call('POST', '/api/bot-config', {
      autoReplies: [
        { trigger: 'suporte', response: 'Como podemos ajudar?', type: 'interactive', buttons: SUPPORT_BUTTONS },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    const from = '5511976540011';
    const say = async (text: string) => {
      driver.injectInbound(from, text);
      await ctx.app.deps.chatbot.idle();
    };

    await say('suporte');
    // What the contact got: the text with the numbered options.
    const sent = driver.outbox.filter((m) => m.to === from);
    expect(sent.at(-1)?.message).toMatchObject({ kind: 'interactive', text: 'Como podemos ajudar?' });
    // The list says the last message is the bot's (not the person's).
    const afterBot = (await call('GET', '/api/conversations')).json();
    expect(afterBot.conversations[0]).toMatchObject({ phone: from, lastDirection: 'out', lastSource: 'bot' });
    await say('3');
    await say('ligar para suporte');

    const detail = await call('GET', `/api/conversations/${from}`);
    expect(detail.statusCode).toBe(200);
    const options = SUPPORT_BUTTONS.map((b) => ({ ...b }));
    expect(shown(detail.json().messages)).toEqual([
      { direction: 'in', source: 'contact', text: 'suporte' },
      {
        direction: 'out',
        source: 'bot',
        text: 'Como podemos ajudar?',
        buttons: { numbered: true, options },
      },
      // What the contact sent, with the option: not the button's keyword 'atendente'.
      { direction: 'in', source: 'contact', text: '3', choice: { option: 'Falar com atendente', number: 3 } },
      // The option asks for a person: the conversation goes to one.
      { direction: 'out', source: 'bot', text: HANDOFF_REPLY },
      // Taken over, the bot is silent; the answer by the option's words is still read as that option.
      { direction: 'in', source: 'contact', text: 'ligar para suporte', choice: { option: 'Ligar para suporte' } },
    ]);
    expect(detail.json().conversation.takenOverUntil).not.toBeNull();
    // The list shows the last message as the contact wrote it.
    const list = (await call('GET', '/api/conversations')).json();
    expect(list.conversations[0]).toMatchObject({ phone: from, lastMessageText: 'ligar para suporte' });
  });

  it('keeps "2" to a menu readable in the list: "2 — option"', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    await call('POST', '/api/bot-config', {
      isEnabled: true,
      autoReplies: [{ trigger: 'menu', response: 'Escolha:', type: 'interactive', buttons: SUPPORT_BUTTONS }],
    });
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    const from = '5511976540022';
    driver.injectInbound(from, 'menu');
    await ctx.app.deps.chatbot.idle();
    // The bot is off now: the answer stays the last message.
    await call('POST', '/api/bot-config', {
      isEnabled: false,
      autoReplies: [{ trigger: 'menu', response: 'Escolha:', type: 'interactive', buttons: SUPPORT_BUTTONS }],
    });
    driver.injectInbound(from, ' 2. ');
    await ctx.app.deps.chatbot.idle();
    const list = (await call('GET', '/api/conversations')).json();
    expect(list.conversations[0]).toMatchObject({ phone: from, lastMessageText: '2 — Central de ajuda' });
    const messages: ConversationMessage[] = (await call('GET', `/api/conversations/${from}`)).json().messages;
    expect(messages.at(-1)).toMatchObject({ text: '2.', choice: { option: 'Central de ajuda', number: 2 } });
  });
});

describe('conversation messages with buttons (Cloud API)', () => {
  const SECRET = 'segredo-do-app';

  async function cloudAccount(phoneNumberId: string) {
    const { call, ...number } = await cloudCustomer(ctx, graph, {
      phoneNumberId,
      displayPhoneNumber: '551130008888',
      verifiedName: 'Loja Conversas',
      businessAccountId: '208',
      appSecret: SECRET,
      profileName: 'Clara Cliente',
    });
    let n = 0;
    const deliver = async (from: string, message: Record<string, unknown>) => {
      // Meta stamps messages to the second: start a new second, so this one sorts after the replies before it.
      await new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));
      const res = await number.deliver(from, message, `wamid.CONV${++n}${Date.now()}`);
      expect(res.statusCode).toBe(200);
      await ctx.app.deps.cloudApi.settled();
      await ctx.app.deps.chatbot.idle();
    };
    return { call, deliver };
  }

  it('returns real reply buttons and a pressed button by its title', async () => {
    const { call, deliver } = await cloudAccount('109000000077');
    await call('POST', '/api/bot-config', {
      autoReplies: PRICE_RULES_WITH_BUTTONS,
    });
    const from = '5511987650077';
    await deliver(from, { type: 'text', text: { body: 'Qual o preço?' } });
    await deliver(from, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'kw:planos', title: 'Ver planos' } },
    });
    const messages: ConversationMessage[] = (await call('GET', `/api/conversations/${from}`)).json().messages;
    expect(shown(messages)).toEqual([
      { direction: 'in', source: 'contact', text: 'Qual o preço?' },
      {
        direction: 'out',
        source: 'bot',
        text: 'Temos planos a partir de R$ 10.',
        buttons: {
          numbered: false,
          options: [
            { text: 'Ver planos', type: 'quick_reply', value: 'planos' },
            { text: 'Site', type: 'url', value: 'https://loja.example.com' },
          ],
        },
      },
      { direction: 'in', source: 'contact', text: 'Ver planos', choice: { option: 'Ver planos' } },
      { direction: 'out', source: 'bot', text: 'Básico, Pro e Premium.' },
    ]);
  });

  it('returns a numbered menu the Cloud API sent as text, and the number answered', async () => {
    const { call, deliver } = await cloudAccount('109000000078');
    // Two links and no quick reply: the Cloud API has no button for that, so it goes as a numbered menu.
    const buttons = [
      { text: 'Catálogo', type: 'url', value: 'https://loja.example.com/produtos' },
      { text: 'Ajuda', type: 'url', value: 'https://loja.example.com/ajuda' },
    ];
    await call('POST', '/api/bot-config', {
      autoReplies: [{ trigger: 'links', response: 'Nossos links:', type: 'interactive', buttons }],
    });
    const from = '5511987650078';
    await deliver(from, { type: 'text', text: { body: 'links' } });
    await deliver(from, { type: 'text', text: { body: '2' } });
    const messages: ConversationMessage[] = (await call('GET', `/api/conversations/${from}`)).json().messages;
    expect(shown(messages).slice(0, 3)).toEqual([
      { direction: 'in', source: 'contact', text: 'links' },
      { direction: 'out', source: 'bot', text: 'Nossos links:', buttons: { numbered: true, options: buttons } },
      { direction: 'in', source: 'contact', text: '2', choice: { option: 'Ajuda', number: 2 } },
    ]);
    // The chosen link is sent back.
    expect(shown(messages)[3]).toMatchObject({ direction: 'out', text: '🔗 https://loja.example.com/ajuda' });
  });
});

describe('who wrote each outbound message, and the campaign’s image', () => {
  const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(64, 1)]);

  it('names the campaign and the person, and gives the campaign’s uploaded image its address', async () => {
    const { user, cookie } = await newCustomer(ctx, { name: 'Rita Atendente' });
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      apiCall(ctx, method, url, { cookie, payload });
    await connectSimulator(ctx, user.id, cookie);
    const upload = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name: 'oferta.jpg', data: JPEG } });
    expect(upload.statusCode, upload.body).toBe(200);
    const imageId = upload.json().id as string;
    expect((await call('POST', '/api/contacts', { name: 'Ana', phone: '21998761111' })).statusCode).toBe(200);
    const created = await call('POST', '/api/campaigns', {
      name: 'Black Friday',
      message: '*20% de desconto* hoje',
      targetType: 'contacts',
      imageUrl: `upload:${imageId}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const campaignId = created.json().id as string;
    expect((await call('POST', `/api/campaigns/${campaignId}/send`)).statusCode).toBe(200);
    // The send loop does not run in this file: the row goes out as the engine would mark it.
    const number = await ctx.app.deps.connections.directory.primary(user.id, 'personal');
    await ctx.database.db.execute(
      sql`update campaign_recipients set status = 'sent', sent_at = now() - interval '1 minute', connection_id = ${number?.id}
          where campaign_id = ${campaignId}`,
    );
    const answered = await call('POST', '/api/conversations/5521998761111/messages', { text: 'Posso ajudar?' });
    expect(answered.statusCode, answered.body).toBe(200);

    const detail = await call('GET', '/api/conversations/5521998761111');
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().conversation).toMatchObject({ lastDirection: 'out', lastSource: 'manual' });
    const messages = detail.json().messages as ConversationMessage[];
    expect(messages.map(({ source, author, text, imageUrl }) => ({ source, author, text, imageUrl }))).toEqual([
      // The text as it went out (the page formats it); the image at the upload's address.
      {
        source: 'campaign',
        author: 'Black Friday',
        text: '*20% de desconto* hoje',
        imageUrl: `/api/uploads/${imageId}`,
      },
      { source: 'manual', author: 'Rita Atendente', text: 'Posso ajudar?', imageUrl: null },
    ]);
    // The owner loads the image from there; another account does not.
    expect((await call('GET', `/api/uploads/${imageId}`)).statusCode).toBe(200);
    const stranger = await newCustomer(ctx);
    expect((await apiCall(ctx, 'GET', `/api/uploads/${imageId}`, { cookie: stranger.cookie })).statusCode).toBe(404);
  });
});
