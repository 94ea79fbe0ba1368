import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../contract/connections';
import { type Conversation, type ConversationMessage, conversationsMsg } from '../../../contract/conversations';
import { appPerFile } from '../../testing/app-per-file';
import { addPersonalNumber, pairNumber } from '../../testing/connections';
import { type ApiMethod, apiCall, createTestApp, createUser, loginAs } from '../../testing/test-app';

/**
 * A conversation is (number, contact): a contact who writes to two of the account's numbers has two
 * conversations, each with its own messages, unread count, handoff and welcome; a reply goes out
 * through the conversation's own number. Two personal numbers paired through the simulator.
 */
const ctx = appPerFile(() =>
  createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 30, detectMs: 20, deliveredMs: 20, readMs: 40 },
  }),
);

const req = (method: ApiMethod, url: string, cookie: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

async function customer() {
  const user = await createUser(ctx, { planType: 'professional' });
  return { user, cookie: await loginAs(ctx, user) };
}

async function pairedNumber(cookie: string, label: string): Promise<ConnectionView> {
  return pairNumber(ctx, cookie, (await addPersonalNumber(ctx, cookie, label)).id);
}

/** An account with the bot on (a welcome and one rule) and two paired numbers. */
async function twoNumbers() {
  const { user, cookie } = await customer();
  const bot = await req('POST', '/api/bot-config', cookie, {
    isEnabled: true,
    welcomeMessage: 'Bem-vindo!',
    autoReplies: [{ trigger: 'preco', response: 'Tabela de preços' }],
  });
  expect(bot.statusCode, bot.body).toBe(200);
  const sales = await pairedNumber(cookie, 'Vendas');
  const support = await pairedNumber(cookie, 'Suporte');
  const outbox = (id: string) =>
    (ctx.app.deps.connections.personalDriver(id) as unknown as { outbox: Array<{ to: string; message: unknown }> })
      .outbox;
  const write = async (numberId: string, from: string, text: string) => {
    await ctx.app.deps.connections.simulateInboundOn(numberId, from, text);
    await ctx.app.deps.chatbot.idle();
  };
  return { user, cookie, sales, support, outbox, write };
}

const CONTACT = '5521977780001';

async function thread(cookie: string, phone: string, connectionId?: string) {
  const res = await req(
    'GET',
    `/api/conversations/${phone}${connectionId ? `?connectionId=${connectionId}` : ''}`,
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { conversation: Conversation; messages: ConversationMessage[] };
}

describe('a conversation per number and contact', () => {
  it('keeps two conversations of one contact apart: list, messages, unread, welcome', async () => {
    const { cookie, sales, support, outbox, write } = await twoNumbers();
    await write(sales.id, CONTACT, 'oi vendas');
    await write(support.id, CONTACT, 'oi suporte');

    // Each number greets the contact: a conversation new on that number gets its welcome.
    expect(outbox(sales.id).filter((m) => m.to === CONTACT)).toHaveLength(1);
    expect(outbox(support.id).filter((m) => m.to === CONTACT)).toHaveLength(1);
    // A second message on the same number is no new conversation: no second welcome, the rule answers.
    await write(sales.id, CONTACT, 'preco');
    expect(outbox(sales.id).filter((m) => m.to === CONTACT)).toHaveLength(2);
    expect(JSON.stringify(outbox(sales.id).at(-1)?.message)).toContain('Tabela de preços');

    const list = (await req('GET', '/api/conversations', cookie)).json().conversations as Conversation[];
    const mine = list.filter((c) => c.phone === CONTACT);
    expect(mine.map((c) => [c.numberLabel, c.unread]).sort()).toEqual([
      ['Suporte', 1],
      ['Vendas', 2],
    ]);

    const onSales = await thread(cookie, CONTACT, sales.id);
    expect(onSales.conversation).toMatchObject({ connectionId: sales.id, numberLabel: 'Vendas' });
    expect(onSales.messages.filter((m) => m.direction === 'in').map((m) => m.text)).toEqual(['oi vendas', 'preco']);
    expect(onSales.messages.map((m) => m.text)).not.toContain('oi suporte');
    const onSupport = await thread(cookie, CONTACT, support.id);
    expect(onSupport.messages.map((m) => [m.direction, m.text])).toEqual([
      ['in', 'oi suporte'],
      ['out', 'Bem-vindo!'],
    ]);

    // Opening one marks only that one read.
    const after = (await req('GET', '/api/conversations', cookie)).json().conversations as Conversation[];
    expect(after.filter((c) => c.phone === CONTACT).every((c) => c.unread === 0)).toBe(true);
    await write(support.id, CONTACT, 'alguém?');
    await thread(cookie, CONTACT, sales.id);
    const unread = (await req('GET', '/api/conversations', cookie)).json().conversations as Conversation[];
    expect(unread.find((c) => c.phone === CONTACT && c.connectionId === support.id)?.unread).toBe(1);

    // Without a number, the route means the conversation with the latest activity (here: Suporte).
    const latest = await thread(cookie, CONTACT);
    expect(latest.conversation.connectionId).toBe(support.id);
  });

  it('answers through the conversation’s own number, and a handoff silences the bot on that number only', async () => {
    const { cookie, sales, support, outbox, write } = await twoNumbers();
    await write(sales.id, CONTACT, 'oi');
    await write(support.id, CONTACT, 'oi');
    const salesBefore = outbox(sales.id).length;
    const supportBefore = outbox(support.id).length;

    const answer = await req('POST', `/api/conversations/${CONTACT}/messages?connectionId=${sales.id}`, cookie, {
      text: 'Aqui é o time de vendas.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().conversation).toMatchObject({ connectionId: sales.id, takenOverUntil: expect.any(String) });
    expect(outbox(sales.id)).toHaveLength(salesBefore + 1);
    expect(outbox(support.id)).toHaveLength(supportBefore);
    expect((await thread(cookie, CONTACT, sales.id)).messages.at(-1)).toMatchObject({
      source: 'manual',
      text: 'Aqui é o time de vendas.',
    });
    expect((await thread(cookie, CONTACT, support.id)).messages.map((m) => m.text)).not.toContain(
      'Aqui é o time de vendas.',
    );

    // A person has Vendas: the bot is silent there, and still answers on Suporte.
    await write(sales.id, CONTACT, 'preco');
    await write(support.id, CONTACT, 'preco');
    expect(outbox(sales.id)).toHaveLength(salesBefore + 1);
    expect(outbox(support.id)).toHaveLength(supportBefore + 1);
    const supportThread = await thread(cookie, CONTACT, support.id);
    expect(supportThread.conversation.takenOverUntil).toBeNull();

    // Take over and release act on the conversation asked for.
    const took = await req('POST', `/api/conversations/${CONTACT}/takeover?connectionId=${support.id}`, cookie);
    expect(took.statusCode, took.body).toBe(200);
    expect(took.json().conversation).toMatchObject({ connectionId: support.id, takenOverUntil: expect.any(String) });
    const released = await req('POST', `/api/conversations/${CONTACT}/release?connectionId=${sales.id}`, cookie);
    expect(released.json().conversation).toMatchObject({ connectionId: sales.id, takenOverUntil: null });
    expect((await thread(cookie, CONTACT, support.id)).conversation.takenOverUntil).not.toBeNull();
  });

  it('refuses to answer from a disconnected number (never from another), and another account’s number is not found', async () => {
    const { cookie, sales, support, outbox, write } = await twoNumbers();
    await write(support.id, CONTACT, 'oi');
    expect((await req('POST', `/api/connections/${support.id}/disconnect`, cookie)).statusCode).toBe(200);
    const salesBefore = outbox(sales.id).length;
    const refused = await req('POST', `/api/conversations/${CONTACT}/messages?connectionId=${support.id}`, cookie, {
      text: 'Olá',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(conversationsMsg.numberNotConnected('Suporte'));
    expect(outbox(sales.id)).toHaveLength(salesBefore);

    // A contact who never wrote to Vendas: answering from it starts the conversation there.
    const started = await req('POST', `/api/conversations/${CONTACT}/messages?connectionId=${sales.id}`, cookie, {
      text: 'Olá do time de vendas',
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(outbox(sales.id)).toHaveLength(salesBefore + 1);

    const other = await twoNumbers();
    for (const [method, path] of [
      ['GET', `/api/conversations/${CONTACT}?connectionId=${other.sales.id}`],
      ['POST', `/api/conversations/${CONTACT}/takeover?connectionId=${other.sales.id}`],
      ['POST', `/api/conversations/${CONTACT}/release?connectionId=${other.sales.id}`],
    ] as const) {
      const res = await req(method, path, cookie);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().message).toBe(conversationsMsg.numberNotFound);
    }
    const foreign = await req('POST', `/api/conversations/${CONTACT}/messages?connectionId=${other.sales.id}`, cookie, {
      text: 'Olá',
    });
    expect(foreign.statusCode).toBe(404);
    expect(other.outbox(other.sales.id)).toHaveLength(0);
    const bad = await req('GET', `/api/conversations/${CONTACT}?connectionId=nao-e-um-id`, cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(conversationsMsg.numberNotFound);
  });
});
