import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botMsg } from '../../../contract/bot';
import { OPT_OUT_CONFIRMATION } from '../../../contract/contacts';
import { OpenAiResponder } from '../../chatbot/ai';
import { HANDOFF_REPLY } from '../../chatbot/steps';
import { rowsOf } from '../../db/rows';
import { FakeOpenAi } from '../../testing/fake-openai';
import {
  apiCall,
  connectSimulator,
  createTestApp,
  newCustomer,
  newCustomerWithCalls,
  type TestContext,
} from '../../testing/test-app';
import type { OutgoingMessage } from '../../whatsapp/driver';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

let ctx: TestContext;
const openai = new FakeOpenAi();
let clock: Date | null = null;

beforeAll(async () => {
  await openai.start();
  ctx = await createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
    dispatcher: { autoStart: false },
    ai: new OpenAiResponder({ apiKey: 'sk-test', baseURL: openai.baseUrl, timeoutMs: 400 }, pino({ level: 'silent' })),
    chatbotClock: () => clock ?? new Date(),
  });
});
afterAll(async () => {
  await ctx.close();
  await openai.stop();
});

let seq = 0;
/** A fresh number the simulator accepts (it refuses numbers ending in 0). */
const newNumber = () => `55119${String(7000000 + ++seq * 7).padStart(7, '0')}1`;

async function account(config?: Record<string, unknown>) {
  const { user, cookie, call } = await newCustomerWithCalls(ctx);
  if (config) expect((await call('POST', '/api/bot-config', config)).statusCode).toBe(200);
  const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
  /** A message from `from`; answers what the bot sent back to that number. */
  const say = async (from: string, text: string): Promise<OutgoingMessage[]> => {
    const before = driver.outbox.length;
    driver.injectInbound(from, text);
    await ctx.app.deps.chatbot.idle();
    return driver.outbox
      .slice(before)
      .filter((m) => m.to === from)
      .map((m) => m.message);
  };
  const events = async () =>
    rowsOf<{ kind: string; detail: string | null }>(
      await ctx.database.db.execute(
        sql`select kind, detail from bot_events where user_id = ${user.id} order by created_at, id`,
      ),
    );
  return { user, cookie, call, driver, say, events };
}

const text = (m: OutgoingMessage | undefined) =>
  m?.kind === 'text' || m?.kind === 'interactive' ? m.text : m?.kind === 'image' ? m.caption : undefined;

describe('bot config API', () => {
  it('answers the spec defaults before anything is saved', async () => {
    const { call } = await account();
    const res = await call('GET', '/api/bot-config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isEnabled: true,
      welcomeMessage: '',
      autoReplies: [],
      aiEnabled: false,
      aiModel: 'gpt-3.5-turbo',
      businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
      outOfHoursMessage: '',
      handoffMinutes: 120,
      aiAvailable: true,
    });
  });

  it("saves the spec's payloads whole: the simple dialog's keyword rows and the manager's rules", async () => {
    const { call } = await account();
    const simple = await call('POST', '/api/bot-config', {
      isEnabled: true,
      welcomeMessage: 'Olá! Bem-vindo.',
      autoReplies: [{ keyword: 'preço', response: 'A partir de R$ 10.' }],
      aiEnabled: false,
      aiModel: 'gpt-3.5-turbo',
      businessHours: { start: '08:00', end: '17:00', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
    });
    expect(simple.statusCode).toBe(200);
    expect(simple.json()).toMatchObject({ success: true, message: botMsg.saved });
    const saved = (await call('GET', '/api/bot-config')).json();
    expect(saved.welcomeMessage).toBe('Olá! Bem-vindo.');
    expect(saved.autoReplies).toEqual([
      expect.objectContaining({
        keyword: 'preço',
        trigger: 'preço',
        response: 'A partir de R$ 10.',
        type: 'text',
        isActive: true,
      }),
    ]);
    expect(saved.businessHours).toMatchObject({ start: '08:00', end: '17:00' });
    // The business hours are the account's one set: the WhatsApp settings see them.
    expect((await call('GET', '/api/settings/whatsapp')).json()).toMatchObject({
      businessStart: '08:00',
      businessEnd: '17:00',
    });

    const manager = await call('POST', '/api/bot-config', {
      ...saved,
      autoReplies: [
        {
          trigger: 'catálogo',
          response: 'Veja nosso catálogo',
          type: 'image',
          imageUrl: 'https://example.com/catalogo.jpg',
          isActive: false,
          buttons: [{ id: 'b1', text: 'Site', type: 'url', value: 'https://example.com' }],
        },
      ],
    });
    expect(manager.statusCode).toBe(200);
    expect(manager.json().config.autoReplies).toEqual([
      expect.objectContaining({
        trigger: 'catálogo',
        type: 'image',
        imageUrl: 'https://example.com/catalogo.jpg',
        isActive: false,
        buttons: [{ id: 'b1', text: 'Site', type: 'url', value: 'https://example.com' }],
      }),
    ]);
    // A stored rule's id survives a save of the whole list.
    const id = manager.json().config.autoReplies[0].id;
    const again = await call('POST', '/api/bot-config', { autoReplies: manager.json().config.autoReplies });
    expect(again.json().config.autoReplies[0].id).toBe(id);
    // A field left out keeps its value.
    expect((await call('POST', '/api/bot-config', { isEnabled: false })).json().config).toMatchObject({
      isEnabled: false,
      welcomeMessage: 'Olá! Bem-vindo.',
      autoReplies: [expect.objectContaining({ trigger: 'catálogo' })],
    });
  });

  it('refuses bad rules in Portuguese and keeps what was stored', async () => {
    const { call } = await account({ autoReplies: [{ keyword: 'oi', response: 'Olá' }] });
    const cases: Array<[unknown, string]> = [
      [[{ keyword: '', response: 'x' }], botMsg.keywordRequired],
      [[{ keyword: 'a', response: '  ' }], botMsg.responseRequired],
      [
        [
          {
            trigger: 'a',
            response: 'x',
            type: 'interactive',
            buttons: [{ text: 'Site', type: 'url', value: 'javascript:alert(1)' }],
          },
        ],
        botMsg.buttonUrlInvalid,
      ],
      [
        [
          {
            trigger: 'a',
            response: 'x',
            type: 'interactive',
            buttons: [{ text: 'Ligar', type: 'phone', value: '123' }],
          },
        ],
        botMsg.buttonPhoneInvalid,
      ],
      [
        [{ trigger: 'a', response: 'x', type: 'text', buttons: [{ text: 'B', type: 'quick_reply', value: 'b' }] }],
        botMsg.buttonsOnlyInteractive,
      ],
      [[{ trigger: 'a', response: 'x', type: 'image' }], botMsg.imageUrlRequired],
      [
        [
          { keyword: 'Preço', response: 'x' },
          { keyword: 'preco', response: 'y' },
        ],
        botMsg.keywordDuplicate('preco'),
      ],
    ];
    for (const [autoReplies, message] of cases) {
      const res = await call('POST', '/api/bot-config', { autoReplies });
      expect(res.statusCode, JSON.stringify(autoReplies)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await call('GET', '/api/bot-config')).json().autoReplies).toEqual([
      expect.objectContaining({ trigger: 'oi' }),
    ]);
  });

  it('keeps each account to its own config', async () => {
    const a = await account({ welcomeMessage: 'Sou A', autoReplies: [{ keyword: 'segredo', response: 'de A' }] });
    const b = await account();
    expect((await b.call('GET', '/api/bot-config')).json()).toMatchObject({ welcomeMessage: '', autoReplies: [] });
    // B sending A's rule id gets a rule of its own; A's stays A's.
    const aRule = (await a.call('GET', '/api/bot-config')).json().autoReplies[0];
    const taken = await b.call('POST', '/api/bot-config', { autoReplies: [{ ...aRule, response: 'de B' }] });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().config.autoReplies[0].id).not.toBe(aRule.id);
    expect((await a.call('GET', '/api/bot-config')).json().autoReplies[0]).toMatchObject({
      id: aRule.id,
      response: 'de A',
    });
    await b.call('POST', '/api/bot-config', { autoReplies: [] });
    expect((await a.call('GET', '/api/bot-config')).json().autoReplies).toHaveLength(1);
  });

  it('refuses to turn AI on where the server has no OpenAI key', async () => {
    const bare = await createTestApp();
    try {
      const { cookie } = await newCustomer(bare);
      const get = await apiCall(bare, 'GET', '/api/bot-config', { cookie });
      expect(get.json().aiAvailable).toBe(false);
      const res = await apiCall(bare, 'POST', '/api/bot-config', { cookie, payload: { aiEnabled: true } });
      expect(res.statusCode).toBe(400);
      // A customer is sent to support, and reads no setting's name anywhere in the answer.
      expect(res.json().message).toBe(botMsg.aiUnavailable);
      expect(res.json().message).toContain('fale com o suporte');
      expect(res.body).not.toMatch(/OPENAI/i);
      expect(get.body).not.toMatch(/OPENAI/i);
      // An administrator, who runs the server, is told which setting is missing.
      const { cookie: adminCookie } = await newCustomer(bare, { accountType: 'admin', planType: 'admin' });
      const asAdmin = await apiCall(bare, 'POST', '/api/bot-config', {
        cookie: adminCookie,
        payload: { aiEnabled: true },
      });
      expect(asAdmin.statusCode).toBe(400);
      expect(asAdmin.json().message).toBe(botMsg.aiUnavailableAdmin);
      expect(asAdmin.json().message).toContain('OPENAI_API_KEY');
      // AI switched on while the server had a key: the config saved whole still saves.
      const { user: had, cookie: hadCookie } = await newCustomer(bare);
      await bare.database.db.execute(sql`insert into bot_configs (user_id, ai_enabled) values (${had.id}, true)`);
      const whole = (await apiCall(bare, 'GET', '/api/bot-config', { cookie: hadCookie })).json();
      const kept = await apiCall(bare, 'POST', '/api/bot-config', {
        cookie: hadCookie,
        payload: { ...whole, welcomeMessage: 'Oi' },
      });
      expect(kept.statusCode, kept.body).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('reply pipeline (simulator)', () => {
  it('answers opt-out first, then welcomes a new conversation once', async () => {
    const { say, call, events } = await account({ welcomeMessage: 'Bem-vindo à loja!' });
    const n = newNumber();
    await call('POST', '/api/contacts', { name: 'Ana', phone: `+${n}` });
    expect((await say(n, 'SAIR')).map(text)).toEqual([OPT_OUT_CONFIRMATION]);
    const other = newNumber();
    expect((await say(other, 'boa tarde')).map(text)).toEqual(['Bem-vindo à loja!']);
    expect(await say(other, 'tudo bem?')).toEqual([]);
    const kinds = (await events()).map((e) => e.kind);
    expect(kinds).toEqual(['inbound', 'opt_out', 'inbound', 'welcome', 'inbound', 'no_match']);
  });

  it('welcomes again after 24 hours of silence', async () => {
    const { say } = await account({ welcomeMessage: 'Oi de novo!' });
    const n = newNumber();
    const hours = (h: number) => new Date(Date.now() + h * 3_600_000);
    try {
      expect((await say(n, 'olá')).map(text)).toEqual(['Oi de novo!']);
      clock = hours(23);
      expect(await say(n, 'olá')).toEqual([]);
      // Silence is measured from the last message the contact sent (stamped when it arrived).
      clock = hours(25);
      expect((await say(n, 'olá')).map(text)).toEqual(['Oi de novo!']);
    } finally {
      clock = null;
    }
  });

  it('answers keywords ignoring case and accents, the longest first, and creates the contact', async () => {
    const { say, call, user } = await account({
      autoReplies: [
        { keyword: 'preço', response: 'Custa R$ 10.' },
        { keyword: 'preço do frete', response: 'Frete grátis.' },
      ],
    });
    const n = newNumber();
    expect((await say(n, 'Qual o PRECO?')).map(text)).toEqual(['Custa R$ 10.']);
    expect((await say(n, 'e o preco do FRETE?')).map(text)).toEqual(['Frete grátis.']);
    expect(await say(n, 'apreçoado')).toEqual([]);
    const contacts = (await call('GET', `/api/contacts?search=${n}`)).json();
    expect(JSON.stringify(contacts)).toContain(n);
    // Without a WhatsApp profile name the contact has none: its number is not written as its name.
    expect(contacts.find((c: { phone: string }) => c.phone === `+${n}`)?.name).toBe('');
    const conv = (await call('GET', `/api/conversations/${n}`)).json();
    expect(conv.messages.map((m: { direction: string; source: string }) => `${m.direction}:${m.source}`)).toEqual([
      'in:contact',
      'out:bot',
      'in:contact',
      'out:bot',
      'in:contact',
    ]);
    expect(user.id).toBeTruthy();
  });

  it('sends buttons as a numbered menu on a personal number and acts on "2" or the button text', async () => {
    const { say } = await account({
      autoReplies: [
        {
          trigger: 'menu',
          response: 'Escolha:',
          type: 'interactive',
          buttons: [
            { text: 'Preços', type: 'quick_reply', value: 'preço' },
            { text: 'Site', type: 'url', value: 'https://loja.example.com' },
            { text: 'Ligar', type: 'phone', value: '+55 11 98888-7777' },
          ],
        },
        { trigger: 'preço', response: 'Tabela de preços: ...' },
      ],
    });
    const n = newNumber();
    const [menu] = await say(n, 'menu');
    expect(menu).toMatchObject({ kind: 'interactive', text: 'Escolha:' });
    expect((await say(n, '1')).map(text)).toEqual(['Tabela de preços: ...']);
    expect((await say(n, 'menu')).length).toBe(1);
    expect((await say(n, '2')).map(text)).toEqual(['🔗 https://loja.example.com']);
    await say(n, 'menu');
    expect((await say(n, 'ligar')).map(text)).toEqual(['📞 +55 11 98888-7777']);
  });

  it('sends an image reply with the text as caption', async () => {
    const { say } = await account({
      autoReplies: [
        { trigger: 'foto', response: 'Nosso produto', type: 'image', imageUrl: 'https://cdn.example.com/p.jpg' },
      ],
    });
    expect(await say(newNumber(), 'manda a foto')).toEqual([
      { kind: 'image', image: { url: 'https://cdn.example.com/p.jpg' }, caption: 'Nosso produto' },
    ]);
  });

  it('outside business hours sends the out-of-hours message once a day and nothing else', async () => {
    const { say, events } = await account({
      outOfHoursMessage: 'Estamos fechados. Voltamos segunda às 9h.',
      autoReplies: [{ keyword: 'preço', response: 'R$ 10' }],
      businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
    });
    const n = newNumber();
    try {
      clock = new Date('2026-11-22T15:00:00Z'); // a Sunday in São Paulo
      expect((await say(n, 'preço')).map(text)).toEqual(['Estamos fechados. Voltamos segunda às 9h.']);
      expect(await say(n, 'preço?')).toEqual([]);
      clock = new Date('2026-11-23T15:00:00Z'); // Monday, 12:00 in São Paulo
      expect((await say(n, 'preço')).map(text)).toEqual(['R$ 10']);
    } finally {
      clock = null;
    }
    expect((await events()).filter((e) => e.kind === 'out_of_hours')).toHaveLength(1);
  });

  it('says nothing while the bot is disabled', async () => {
    const { say, events } = await account({
      isEnabled: false,
      welcomeMessage: 'Oi',
      autoReplies: [{ keyword: 'oi', response: 'Olá' }],
    });
    expect(await say(newNumber(), 'oi')).toEqual([]);
    expect((await events()).map((e) => e.kind)).toEqual(['inbound', 'disabled']);
  });

  it('a person answering takes the conversation over and silences the bot until handed back', async () => {
    const { say, call } = await account({ autoReplies: [{ keyword: 'oi', response: 'Olá do bot' }] });
    const n = newNumber();
    expect((await say(n, 'oi')).map(text)).toEqual(['Olá do bot']);
    const list = (await call('GET', '/api/conversations')).json();
    expect(list.conversations[0]).toMatchObject({ phone: n, unread: 1, takenOverUntil: null });
    const answer = await call('POST', `/api/conversations/${n}/messages`, { text: 'Aqui é a Maria, posso ajudar?' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().conversation.takenOverUntil).not.toBeNull();
    expect(await say(n, 'oi')).toEqual([]);
    const detail = (await call('GET', `/api/conversations/${n}`)).json();
    expect(detail.messages.map((m: { source: string }) => m.source)).toEqual(['contact', 'bot', 'manual', 'contact']);
    expect((await call('GET', '/api/conversations')).json().conversations[0].unread).toBe(0);
    expect((await call('POST', `/api/conversations/${n}/release`)).json().conversation.takenOverUntil).toBeNull();
    expect((await say(n, 'oi')).map(text)).toEqual(['Olá do bot']);
  });

  it('hands over to a person when the contact asks for one', async () => {
    const { say, call } = await account();
    const n = newNumber();
    expect((await say(n, 'quero falar com um atendente')).map(text)).toEqual([HANDOFF_REPLY]);
    expect((await call('GET', '/api/conversations')).json().conversations[0].takenOverUntil).not.toBeNull();
    expect(await say(n, 'alô?')).toEqual([]);
  });

  it('answers with the AI when no rule matches, with the business context and the conversation', async () => {
    openai.respond = () => 'Abrimos às 9h, de segunda a sexta.';
    const { say } = await account({
      aiEnabled: true,
      aiModel: 'gpt-4o-mini',
      aiInstructions: 'Padaria artesanal em Campinas.',
      autoReplies: [{ keyword: 'pão', response: 'Pão fresco às 7h.' }],
    });
    const n = newNumber();
    expect((await say(n, 'pão')).map(text)).toEqual(['Pão fresco às 7h.']);
    const before = openai.requests.length;
    expect((await say(n, 'que horas vocês abrem?')).map(text)).toEqual(['Abrimos às 9h, de segunda a sexta.']);
    const req = openai.requests[before];
    expect(req.model).toBe('gpt-4o-mini');
    expect(req.authorization).toBe('Bearer sk-test');
    expect(req.messages[0]).toMatchObject({ role: 'system' });
    expect(req.messages[0].content).toContain('Padaria artesanal em Campinas.');
    expect(req.messages[0].content).toContain('pão → Pão fresco às 7h.');
    expect(req.messages.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(req.messages.at(-1)?.content).toBe('que horas vocês abrem?');
  });

  it('gives up on a slow or failing AI without answering, and hands over when the AI cannot help', async () => {
    const { say, events, call } = await account({ aiEnabled: true });
    openai.respond = () => 'tarde demais';
    openai.delayMs = 1500;
    try {
      expect(await say(newNumber(), 'pergunta difícil')).toEqual([]);
    } finally {
      openai.delayMs = 0;
    }
    openai.respond = () => ({ status: 500, body: { error: { message: 'boom' } } });
    expect(await say(newNumber(), 'outra pergunta')).toEqual([]);
    expect((await events()).filter((e) => e.kind === 'ai_failed')).toHaveLength(2);
    openai.respond = () => '[ATENDENTE]';
    const n = newNumber();
    expect((await say(n, 'quero cancelar meu pedido 123')).map(text)).toEqual([HANDOFF_REPLY]);
    const conv = (await call('GET', `/api/conversations/${n}`)).json();
    expect(conv.conversation.takenOverUntil).not.toBeNull();
  });

  it("keeps each contact's order and answers a repeated delivery once", async () => {
    const { driver, events, user } = await account({
      autoReplies: Array.from({ length: 10 }, (_, i) => ({ keyword: `item${i}`, response: `resposta ${i}` })),
    });
    const a = newNumber();
    const b = newNumber();
    for (let i = 0; i < 10; i++) {
      driver.injectInbound(a, `item${i}`);
      driver.injectInbound(b, `item${9 - i}`);
    }
    await ctx.app.deps.chatbot.idle();
    const to = (n: string) => driver.outbox.filter((m) => m.to === n).map((m) => text(m.message));
    expect(to(a)).toEqual(Array.from({ length: 10 }, (_, i) => `resposta ${i}`));
    expect(to(b)).toEqual(Array.from({ length: 10 }, (_, i) => `resposta ${9 - i}`));
    // The same provider message twice (a webhook retry) is answered once.
    const before = driver.outbox.length;
    const message = { from: a, text: 'item1', providerMessageId: 'DUP-1', timestamp: new Date() };
    for (let i = 0; i < 3; i++)
      (driver as unknown as { emit: (e: string, m: unknown) => void }).emit('inbound', message);
    await ctx.app.deps.chatbot.idle();
    expect(driver.outbox.length - before).toBe(1);
    expect((await events()).filter((e) => e.kind === 'auto_reply')).toHaveLength(21);
    expect(user.id).toBeTruthy();
  });

  it('moves a reply forward on receipts and shows it in the conversation', async () => {
    const { say, call } = await account({ autoReplies: [{ keyword: 'oi', response: 'Olá' }] });
    const n = newNumber();
    await say(n, 'oi');
    const read = async () =>
      (await call('GET', `/api/conversations/${n}`))
        .json()
        .messages.find((m: { source: string }) => m.source === 'bot');
    for (let i = 0; i < 100 && (await read()).status !== 'read'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await read()).status).toBe('read');
  });

  it('keeps conversations to their account', async () => {
    const a = await account({ autoReplies: [{ keyword: 'oi', response: 'Olá' }] });
    const b = await account();
    const n = newNumber();
    await a.say(n, 'oi');
    expect((await b.call('GET', '/api/conversations')).json().conversations).toEqual([]);
    expect((await b.call('GET', `/api/conversations/${n}`)).statusCode).toBe(404);
    expect((await b.call('POST', `/api/conversations/${n}/messages`, { text: 'x' })).statusCode).toBe(404);
    expect((await b.call('POST', `/api/conversations/${n}/takeover`)).statusCode).toBe(404);
    expect((await a.call('GET', '/api/conversations')).json().conversations[0].takenOverUntil).toBeNull();
  });
});
