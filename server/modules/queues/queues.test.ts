import { describe, expect, it } from 'vitest';
import { queuesMsg } from '../../../contract/queues';
import { teamMsg } from '../../../contract/team';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import { newMember } from '../../testing/team';
import { type ApiMethod, apiCall, connectSimulator, newCustomer } from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

/**
 * Queues: managers keep them and everyone reads them; a queue names the account's own numbers and
 * people only; a new conversation on a queue's number is in that queue, and the list filters by it;
 * deleting a queue leaves its conversations in none.
 */
const ctx = simulatorAppPerFile();
const as = (cookie: string) => (method: ApiMethod, url: string, payload?: unknown) =>
  apiCall(ctx, method, url, { cookie, payload });

describe('queues', () => {
  it('are kept by managers, read by agents, and refuse a taken name and bad hours in pt-BR', async () => {
    const owner = await newCustomer(ctx, { planType: 'professional' });
    const manager = as((await newMember(ctx, owner.user, 'manager')).cookie);
    const agent = await newMember(ctx, owner.user, 'agent');
    const made = await manager('POST', '/api/queues', {
      name: 'Financeiro',
      memberIds: [agent.member.id, agent.member.id],
      hours: { start: '08:00', end: '18:00', days: ['friday', 'monday'] },
      outOfHoursMessage: 'Voltamos às 8h.',
      assignment: 'round_robin',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().queue).toMatchObject({
      name: 'Financeiro',
      memberIds: [agent.member.id],
      hours: { start: '08:00', end: '18:00', days: ['monday', 'friday'] },
      assignment: 'round_robin',
      openConversations: 0,
    });
    const taken = await manager('POST', '/api/queues', { name: 'Financeiro' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(queuesMsg.nameTaken);
    const badHours = await manager('POST', '/api/queues', {
      name: 'Suporte',
      hours: { start: '18:00', end: '08:00', days: ['monday'] },
    });
    expect(badHours.statusCode).toBe(400);
    const refused = await as(agent.cookie)('POST', '/api/queues', { name: 'Minha' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(teamMsg.agentForbidden);
    const list = (await as(agent.cookie)('GET', '/api/queues')).json().queues;
    expect(list.map((q: { name: string }) => q.name)).toEqual(['Financeiro']);
    const id = made.json().queue.id;
    const renamed = await manager('PUT', `/api/queues/${id}`, { name: 'Cobrança' });
    expect(renamed.json().queue).toMatchObject({ name: 'Cobrança', memberIds: [], hours: null, assignment: 'manual' });
  });

  it('names only the account’s own numbers and active people', async () => {
    const owner = await newCustomer(ctx, { planType: 'professional' });
    const other = await newCustomer(ctx, { planType: 'professional' });
    const stranger = await newMember(ctx, other.user, 'agent');
    await connectSimulator(ctx, other.user.id, other.cookie);
    const theirNumber = (await as(other.cookie)('GET', '/api/connections')).json().connections[0].id;
    const byOwner = as(owner.cookie);
    const number = await byOwner('POST', '/api/queues', { name: 'X', connectionIds: [theirNumber] });
    expect(number.statusCode).toBe(404);
    expect(number.json().message).toBe(queuesMsg.connectionNotFound);
    for (const memberId of [stranger.member.id, other.user.id]) {
      const person = await byOwner('POST', '/api/queues', { name: 'Y', memberIds: [memberId] });
      expect(person.statusCode).toBe(404);
      expect(person.json().message).toBe(queuesMsg.memberNotFound);
    }
    expect((await byOwner('GET', '/api/queues')).json().queues).toEqual([]);
    const theirs = (await as(other.cookie)('POST', '/api/queues', { name: 'Deles' })).json().queue.id;
    expect((await byOwner('PUT', `/api/queues/${theirs}`, { name: 'Meu' })).statusCode).toBe(404);
    expect((await byOwner('DELETE', `/api/queues/${theirs}`)).statusCode).toBe(404);
  });

  it('takes the new conversations of its numbers; the list filters by queue; deleting it leaves them in none', async () => {
    const owner = await newCustomer(ctx, { planType: 'professional' });
    const driver = (await connectSimulator(ctx, owner.user.id, owner.cookie)) as SimulatorDriver;
    const byOwner = as(owner.cookie);
    const number = (await byOwner('GET', '/api/connections')).json().connections[0].id;
    const queue = (await byOwner('POST', '/api/queues', { name: 'Vendas', connectionIds: [number] })).json().queue;
    const from = `55119${String(Date.now()).slice(-7)}1`;
    driver.injectInbound(from, 'Quero comprar');
    await ctx.app.deps.chatbot.idle();
    const [conversation] = (await byOwner('GET', `/api/conversations?queueId=${queue.id}`)).json().conversations;
    expect(conversation).toMatchObject({ phone: from, queueId: queue.id, queueName: 'Vendas' });
    expect((await byOwner('GET', '/api/queues')).json().queues[0].openConversations).toBe(1);
    expect((await byOwner('DELETE', `/api/queues/${queue.id}`)).statusCode).toBe(200);
    const [after] = (await byOwner('GET', '/api/conversations')).json().conversations;
    expect(after).toMatchObject({ phone: from, queueId: null });
  });
});
