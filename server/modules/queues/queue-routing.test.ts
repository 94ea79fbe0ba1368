import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { botMsg, weekdays } from '../../../contract/bot';
import { conversationsMsg } from '../../../contract/conversations';
import { users } from '../../db/schema';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import { newMember } from '../../testing/team';
import { type ApiMethod, apiCall, connectSimulator, newCustomer } from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

/**
 * Queues at work: an agent sees the conversations of their queues, those given to them and those in
 * no queue — nothing of another queue; a round-robin queue gives new conversations in turn to its
 * people online; a queue closed now answers with its out-of-hours message once a day; a chatbot
 * rule naming a queue hands the conversation to it; the team list tells each member's queues.
 */
const ctx = simulatorAppPerFile();
const as = (cookie: string) => (method: ApiMethod, url: string, payload?: unknown) =>
  apiCall(ctx, method, url, { cookie, payload });
let serial = 0;
/** A number ending in 1: the simulator fails sends to numbers ending in 0. */
const newPhone = () => `55119${String(Date.now() + serial++).slice(-7)}1`;

async function setup() {
  const owner = await newCustomer(ctx, { planType: 'professional' });
  const ana = await newMember(ctx, owner.user, 'agent');
  const bia = await newMember(ctx, owner.user, 'agent');
  const driver = (await connectSimulator(ctx, owner.user.id, owner.cookie)) as SimulatorDriver;
  const byOwner = as(owner.cookie);
  const number = (await byOwner('GET', '/api/connections')).json().connections[0].id as string;
  const say = async (from: string, text: string) => {
    driver.injectInbound(from, text);
    await ctx.app.deps.chatbot.idle();
  };
  const online = (ids: string[], at = new Date()) =>
    ctx.database.db.update(users).set({ lastSeenAt: at }).where(inArray(users.id, ids));
  const sentTo = (to: string) =>
    driver.outbox.filter((m) => m.to === to).map((m) => (m.message as { text?: string }).text ?? '');
  return { owner, ana, bia, driver, byOwner, number, say, online, sentTo };
}

const phones = (res: { json: () => { conversations: Array<{ phone: string }> } }) =>
  res
    .json()
    .conversations.map((c) => c.phone)
    .sort();

/** Today's weekday in São Paulo, and one that is not today. */
function notToday(): (typeof weekdays)[number] {
  const today = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'America/Sao_Paulo' })
    .format(new Date())
    .toLowerCase();
  return weekdays.find((d) => d !== today) ?? 'monday';
}

describe('queues at work', () => {
  it('an agent sees their queues, their own and the unqueued conversations, and nothing of another queue', async () => {
    const { ana, bia, byOwner, number, say } = await setup();
    const vendas = (
      await byOwner('POST', '/api/queues', { name: 'Vendas', connectionIds: [number], memberIds: [ana.member.id] })
    ).json().queue;
    const inVendas = newPhone();
    await say(inVendas, 'Quero comprar');
    // Bia works another queue.
    const suporte = (await byOwner('POST', '/api/queues', { name: 'Suporte', memberIds: [bia.member.id] })).json()
      .queue;
    expect(vendas.id).not.toBe(suporte.id);

    const byAna = as(ana.cookie);
    const byBia = as(bia.cookie);
    expect(phones(await byAna('GET', '/api/conversations'))).toEqual([inVendas]);
    expect(phones(await byBia('GET', '/api/conversations'))).toEqual([]);
    expect(phones(await byOwner('GET', '/api/conversations'))).toEqual([inVendas]);
    // Every route of that conversation is closed to Bia, as if it did not exist.
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['POST', '/notes', { text: 'oi' }],
      ['POST', '/messages', { text: 'oi' }],
      ['POST', '/assign', { memberId: bia.member.id }],
      ['POST', '/status', { status: 'resolved' }],
      ['POST', '/takeover', undefined],
    ] as const) {
      const res = await byBia(method, `/api/conversations/${inVendas}${path}`, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().message).toBe(conversationsMsg.notFound);
    }
    expect((await byAna('GET', `/api/conversations/${inVendas}`)).statusCode).toBe(200);

    // Given to Bia by the owner, she sees it (and only it); out of every queue, everyone does.
    await byOwner('POST', `/api/conversations/${inVendas}/assign`, { memberId: bia.member.id });
    expect(phones(await byBia('GET', '/api/conversations'))).toEqual([inVendas]);
    expect((await byBia('GET', `/api/conversations/${inVendas}`)).statusCode).toBe(200);
    await byOwner('POST', `/api/conversations/${inVendas}/assign`, { memberId: null });
    expect(phones(await byBia('GET', '/api/conversations'))).toEqual([]);
    await byOwner('DELETE', `/api/queues/${vendas.id}`);
    expect(phones(await byBia('GET', '/api/conversations'))).toEqual([inVendas]);
  });

  it('round robin gives new conversations in turn to the queue’s people online, and tells each', async () => {
    const { owner, ana, bia, byOwner, number, say, online } = await setup();
    const carla = await newMember(ctx, owner.user, 'agent');
    await byOwner('POST', '/api/queues', {
      name: 'Atendimento',
      connectionIds: [number],
      memberIds: [ana.member.id, bia.member.id, carla.member.id],
      assignment: 'round_robin',
    });
    await online([ana.member.id, bia.member.id]);
    // Carla was last seen an hour ago: not online, skipped.
    await online([carla.member.id], new Date(Date.now() - 60 * 60_000));
    const contacts = [newPhone(), newPhone(), newPhone()];
    for (const from of contacts) await say(from, 'Bom dia');
    const list = (await byOwner('GET', '/api/conversations')).json().conversations as Array<{
      phone: string;
      assigneeId: string | null;
    }>;
    const assignee = (phone: string) => list.find((c) => c.phone === phone)?.assigneeId;
    expect(contacts.map(assignee)).toEqual([ana.member.id, bia.member.id, ana.member.id]);
    // A second message of a conversation already given is not offered again.
    await say(contacts[0], 'Alguém aí?');
    const again = (await byOwner('GET', '/api/conversations')).json().conversations;
    expect(again.find((c: { phone: string }) => c.phone === contacts[0]).assigneeId).toBe(ana.member.id);
    const anaBell = (await as(ana.cookie)('GET', '/api/notifications')).json().notifications;
    expect(anaBell.filter((n: { kind: string }) => n.kind === 'conversation_assigned')).toHaveLength(2);
    // The owner's bell does not carry notices addressed to Ana.
    const ownerBell = (await byOwner('GET', '/api/notifications')).json().notifications;
    expect(ownerBell.some((n: { kind: string }) => n.kind === 'conversation_assigned')).toBe(false);

    // Nobody online: the conversation waits unassigned for whoever takes it.
    await online([ana.member.id, bia.member.id], new Date(Date.now() - 60 * 60_000));
    const late = newPhone();
    await say(late, 'Oi');
    const waiting = (await byOwner('GET', '/api/conversations?assignee=none')).json().conversations;
    expect(waiting.map((c: { phone: string }) => c.phone)).toEqual([late]);
  });

  it('a queue closed now answers with its out-of-hours message, once a day, and the bot stays quiet', async () => {
    const { byOwner, number, say, sentTo } = await setup();
    await byOwner('POST', '/api/bot-config', {
      isEnabled: true,
      autoReplies: [{ keyword: 'preço', response: 'Nossa tabela de preços: …' }],
    });
    await byOwner('POST', '/api/queues', {
      name: 'Financeiro',
      connectionIds: [number],
      hours: { start: '08:00', end: '18:00', days: [notToday()] },
      outOfHoursMessage: 'O financeiro atende de 8h às 18h. Responderemos assim que abrirmos.',
    });
    const from = newPhone();
    await say(from, 'preço');
    await say(from, 'preço');
    expect(sentTo(from)).toEqual(['O financeiro atende de 8h às 18h. Responderemos assim que abrirmos.']);
  });

  it('a rule naming a queue answers, then hands the conversation to that queue', async () => {
    const { ana, byOwner, say, sentTo, online } = await setup();
    const queue = (
      await byOwner('POST', '/api/queues', {
        name: 'Financeiro',
        memberIds: [ana.member.id],
        assignment: 'round_robin',
      })
    ).json().queue;
    await online([ana.member.id]);
    const saved = await byOwner('POST', '/api/bot-config/auto-replies', {
      trigger: 'boleto',
      response: 'Vou te passar para o financeiro.',
      queueId: queue.id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().rule.queueId).toBe(queue.id);
    const from = newPhone();
    await say(from, 'boleto');
    expect(sentTo(from)).toEqual(['Vou te passar para o financeiro.']);
    const [conversation] = (await byOwner('GET', `/api/conversations?queueId=${queue.id}`)).json().conversations;
    expect(conversation).toMatchObject({ phone: from, queueName: 'Financeiro', assigneeId: ana.member.id });
    expect(conversation.takenOverUntil).not.toBeNull();
    // Taken over: the bot does not answer the next message.
    await say(from, 'boleto');
    expect(sentTo(from)).toHaveLength(1);
  });

  it('a rule names only a queue of the account, and the team list tells each member’s queues', async () => {
    const { ana, bia, byOwner } = await setup();
    const other = await newCustomer(ctx, { planType: 'professional' });
    const theirs = (await as(other.cookie)('POST', '/api/queues', { name: 'Deles' })).json().queue.id;
    const refused = await byOwner('POST', '/api/bot-config/auto-replies', {
      trigger: 'x',
      response: 'y',
      queueId: theirs,
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({
      message: botMsg.queueNotFound,
      fieldErrors: { queueId: botMsg.queueNotFound },
    });
    const whole = await byOwner('POST', '/api/bot-config', {
      autoReplies: [{ keyword: 'x', response: 'y', queueId: theirs }],
    });
    expect(whole.statusCode).toBe(404);

    const queue = (await byOwner('POST', '/api/queues', { name: 'Vendas', memberIds: [ana.member.id] })).json().queue;
    const members = async () =>
      (await byOwner('GET', '/api/team')).json().members as Array<{ id: string; queueIds: string[] }>;
    expect((await members()).find((m) => m.id === ana.member.id)?.queueIds).toEqual([queue.id]);
    // PATCH queueIds puts Bia in the queue (and takes Ana out when hers become []).
    const patched = await byOwner('PATCH', `/api/team/${bia.member.id}`, { queueIds: [queue.id] });
    expect(patched.statusCode, patched.body).toBe(200);
    await byOwner('PATCH', `/api/team/${ana.member.id}`, { queueIds: [] });
    const after = await members();
    expect(after.find((m) => m.id === bia.member.id)?.queueIds).toEqual([queue.id]);
    expect(after.find((m) => m.id === ana.member.id)?.queueIds).toEqual([]);
    const [stored] = (await byOwner('GET', '/api/queues')).json().queues;
    expect(stored.memberIds).toEqual([bia.member.id]);
    const foreign = await byOwner('PATCH', `/api/team/${bia.member.id}`, { queueIds: [theirs] });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('unread counts per login', () => {
  it('each login has its own; one who never opened a conversation sees the team’s', async () => {
    const { owner, ana, bia, byOwner, say } = await setup();
    const from = newPhone();
    await say(from, 'Oi');
    await say(from, 'Tem alguém?');
    const unread = async (cookie: string) =>
      (await as(cookie)('GET', '/api/conversations'))
        .json()
        .conversations.find((c: { phone: string }) => c.phone === from).unread as number;
    expect([await unread(owner.cookie), await unread(ana.cookie), await unread(bia.cookie)]).toEqual([2, 2, 2]);
    // Ana reads it: hers is 0, the owner's is still 2 (he opened nothing).
    expect((await as(ana.cookie)('GET', `/api/conversations/${from}`)).json().conversation.unread).toBe(0);
    expect(await unread(ana.cookie)).toBe(0);
    await byOwner('GET', `/api/conversations/${from}`);
    await say(from, 'Mais uma');
    expect(await unread(ana.cookie)).toBe(1);
    expect(await unread(owner.cookie)).toBe(1);
    // Bia never opened it: she sees the team's count, new since someone last opened it.
    expect(await unread(bia.cookie)).toBe(1);
    await as(bia.cookie)('GET', `/api/conversations/${from}`);
    await say(from, 'E agora?');
    expect([await unread(owner.cookie), await unread(ana.cookie), await unread(bia.cookie)]).toEqual([2, 2, 1]);
  });
});
