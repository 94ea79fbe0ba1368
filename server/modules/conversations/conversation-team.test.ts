import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversationsMsg } from '../../../contract/conversations';
import { notificationMsg } from '../../../contract/notifications';
import { users } from '../../db/schema';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import { newMember } from '../../testing/team';
import { type ApiMethod, apiCall, connectSimulator, newCustomer } from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

/**
 * The inbox as a team: a conversation has a status and an assignee; members assign, resolve and
 * filter by them; a new message reopens a resolved conversation; an answer names the member who
 * wrote it and makes an unassigned conversation theirs; nobody outside the account is assignable.
 */
const ctx = simulatorAppPerFile();

async function teamWithConversation() {
  const owner = await newCustomer(ctx, { planType: 'professional' });
  const agent = await newMember(ctx, owner.user, 'agent');
  const other = await newMember(ctx, owner.user, 'agent');
  const driver = (await connectSimulator(ctx, owner.user.id, owner.cookie)) as SimulatorDriver;
  // A number ending in 1: the simulator fails sends to numbers ending in 0 (no WhatsApp there).
  const from = `55119${String(Date.now()).slice(-7)}1`;
  const say = async (text: string) => {
    driver.injectInbound(from, text);
    await ctx.app.deps.chatbot.idle();
  };
  await say('Olá, preciso de ajuda');
  const as = (cookie: string) => (method: ApiMethod, url: string, payload?: unknown) =>
    apiCall(ctx, method, url, { cookie, payload });
  return { owner, agent, other, driver, from, say, as };
}

describe('a conversation worked by a team', () => {
  it('starts open and unassigned, is assigned and filtered by assignee, and resolved', async () => {
    const { owner, agent, other, from, as } = await teamWithConversation();
    const byAgent = as(agent.cookie);
    const list = (await byAgent('GET', '/api/conversations')).json().conversations;
    expect(list[0]).toMatchObject({ phone: from, status: 'open', assigneeId: null, assigneeName: null });

    const assigned = await byAgent('POST', `/api/conversations/${from}/assign`, { memberId: agent.member.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({
      message: conversationsMsg.assigned(agent.member.name),
      conversation: { assigneeId: agent.member.id, assigneeName: agent.member.name },
    });
    const phones = async (cookie: string, query: string) =>
      (await as(cookie)('GET', `/api/conversations?${query}`))
        .json()
        .conversations.map((c: { phone: string }) => c.phone);
    expect(await phones(agent.cookie, 'assignee=me')).toEqual([from]);
    expect(await phones(other.cookie, 'assignee=me')).toEqual([]);
    expect(await phones(owner.cookie, 'assignee=none')).toEqual([]);
    expect(await phones(owner.cookie, `assignee=${agent.member.id}`)).toEqual([from]);

    const resolved = await byAgent('POST', `/api/conversations/${from}/status`, { status: 'resolved' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().conversation.status).toBe('resolved');
    expect(await phones(owner.cookie, 'status=resolved')).toEqual([from]);
    expect(await phones(owner.cookie, 'status=open')).toEqual([]);

    // Back to nobody.
    const none = await byAgent('POST', `/api/conversations/${from}/assign`, { memberId: null });
    expect(none.json()).toMatchObject({ message: conversationsMsg.unassigned, conversation: { assigneeId: null } });
  });

  it('a new message from the contact reopens a resolved conversation, keeping its assignee', async () => {
    const { agent, from, say, as } = await teamWithConversation();
    const byAgent = as(agent.cookie);
    await byAgent('POST', `/api/conversations/${from}/assign`, { memberId: agent.member.id });
    await byAgent('POST', `/api/conversations/${from}/status`, { status: 'resolved' });
    await say('Voltei, ainda tenho uma dúvida');
    const [conversation] = (await byAgent('GET', '/api/conversations')).json().conversations;
    expect(conversation).toMatchObject({ phone: from, status: 'open', assigneeId: agent.member.id });
    // A pending one (waiting on the contact) stays pending: only resolved reopens.
    await byAgent('POST', `/api/conversations/${from}/status`, { status: 'pending' });
    await say('Mais uma coisa');
    expect((await byAgent('GET', '/api/conversations')).json().conversations[0].status).toBe('pending');
  });

  it('an answer names the member who wrote it and makes an unassigned conversation theirs', async () => {
    const { agent, from, driver, as } = await teamWithConversation();
    const sent = await as(agent.cookie)('POST', `/api/conversations/${from}/messages`, { text: 'Posso ajudar, sim!' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().conversation).toMatchObject({ assigneeId: agent.member.id });
    expect(driver.outbox.some((m) => m.to === from)).toBe(true);
    const messages = (await as(agent.cookie)('GET', `/api/conversations/${from}`)).json().messages;
    expect(messages.at(-1)).toMatchObject({ source: 'manual', author: agent.member.name, text: 'Posso ajudar, sim!' });
  });

  it('the list names who wrote the last answer, for the owner and the rest of the team', async () => {
    const { owner, agent, from, as } = await teamWithConversation();
    const lastOf = async (cookie: string) =>
      (await as(cookie)('GET', '/api/conversations'))
        .json()
        .conversations.find((c: { phone: string }) => c.phone === from);
    // The contact's message: nobody of the team wrote it.
    expect(await lastOf(owner.cookie)).not.toHaveProperty('lastAuthorId');
    await as(agent.cookie)('POST', `/api/conversations/${from}/messages`, { text: 'Posso ajudar, sim!' });
    expect(await lastOf(owner.cookie)).toMatchObject({
      lastSource: 'manual',
      lastAuthorId: agent.member.id,
      lastAuthorName: agent.member.name,
    });
    await as(owner.cookie)('POST', `/api/conversations/${from}/messages`, { text: 'Eu assumo daqui.' });
    expect(await lastOf(agent.cookie)).toMatchObject({ lastAuthorId: owner.user.id, lastAuthorName: owner.user.name });
  });

  it('refuses a member of another account, a deactivated member, and bad filters, in pt-BR', async () => {
    const { owner, agent, from, as } = await teamWithConversation();
    const stranger = await newCustomer(ctx);
    const strangerMember = await newMember(ctx, stranger.user, 'agent');
    const byOwner = as(owner.cookie);
    for (const memberId of [stranger.user.id, strangerMember.member.id]) {
      const refused = await byOwner('POST', `/api/conversations/${from}/assign`, { memberId });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(conversationsMsg.memberNotFound);
    }
    await byOwner('PATCH', `/api/team/${agent.member.id}`, { isActive: false });
    const inactive = await byOwner('POST', `/api/conversations/${from}/assign`, { memberId: agent.member.id });
    expect(inactive.statusCode).toBe(404);
    // The owner may take it.
    const mine = await byOwner('POST', `/api/conversations/${from}/assign`, { memberId: owner.user.id });
    expect(mine.json().conversation.assigneeId).toBe(owner.user.id);

    const badStatus = await byOwner('POST', `/api/conversations/${from}/status`, { status: 'closed' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().message).toBe(conversationsMsg.statusInvalid);
    const badFilter = await byOwner('GET', '/api/conversations?assignee=alguem');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().message).toBe(conversationsMsg.assigneeInvalid);
  });

  it('a note stays in the thread for the team, never reaches WhatsApp, and tells the member it names', async () => {
    const { owner, agent, other, from, driver, as } = await teamWithConversation();
    const before = driver.outbox.length;
    // A first name, typed without its accent and in capitals, names the member.
    await ctx.database.db.update(users).set({ name: 'Júlia Prado' }).where(eq(users.id, agent.member.id));
    const noted = await as(other.cookie)('POST', `/api/conversations/${from}/notes`, {
      text: 'Cliente quer retorno amanhã, @JULIA',
    });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json()).toMatchObject({
      message: conversationsMsg.noteAdded,
      note: { source: 'note', direction: 'out', author: other.member.name },
      mentioned: [{ id: agent.member.id, name: 'Júlia Prado' }],
    });
    expect(driver.outbox.length).toBe(before);
    const thread = (await as(owner.cookie)('GET', `/api/conversations/${from}`)).json().messages;
    expect(thread.at(-1)).toMatchObject({ source: 'note', author: other.member.name });
    // The list's last message is still the contact's.
    const [listed] = (await as(owner.cookie)('GET', '/api/conversations')).json().conversations;
    expect(listed).toMatchObject({ lastMessageText: 'Olá, preciso de ajuda', lastDirection: 'in' });
    // The named member is told; the owner's and the other member's bells are not.
    const bell = async (cookie: string) =>
      (await as(cookie)('GET', '/api/notifications'))
        .json()
        .notifications.filter((n: { kind: string }) => n.kind === 'conversation_mention');
    expect(await bell(agent.cookie)).toHaveLength(1);
    expect((await bell(agent.cookie))[0].title).toContain(other.member.name);
    expect(await bell(owner.cookie)).toHaveLength(0);
    expect(await bell(other.cookie)).toHaveLength(0);
    // Mentioning the owner reaches the owner, not the members, who read the account's other notices.
    await as(agent.cookie)('POST', `/api/conversations/${from}/notes`, { text: `@${owner.user.username} veja isto` });
    expect(await bell(owner.cookie)).toHaveLength(1);
    expect(await bell(other.cookie)).toHaveLength(0);
    const empty = await as(agent.cookie)('POST', `/api/conversations/${from}/notes`, { text: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(conversationsMsg.noteRequired);
  });

  it('the member given a conversation by someone else is told; taking it oneself tells nobody', async () => {
    const { owner, agent, other, from, as } = await teamWithConversation();
    const assigned = async (cookie: string) =>
      (await as(cookie)('GET', '/api/notifications'))
        .json()
        .notifications.filter((n: { kind: string }) => n.kind === 'conversation_assigned');
    await as(owner.cookie)('POST', `/api/conversations/${from}/assign`, { memberId: agent.member.id });
    const [told] = await assigned(agent.cookie);
    expect(told).toMatchObject({ title: notificationMsg.assigned.title });
    expect(told.body).toContain(owner.user.name);
    expect(await assigned(other.cookie)).toHaveLength(0);
    expect(await assigned(owner.cookie)).toHaveLength(0);
    await as(other.cookie)('POST', `/api/conversations/${from}/assign`, { memberId: other.member.id });
    expect(await assigned(other.cookie)).toHaveLength(0);
  });

  it('another account can neither assign nor resolve the conversation', async () => {
    const { from, as } = await teamWithConversation();
    const stranger = await newCustomer(ctx);
    const byStranger = as(stranger.cookie);
    expect((await byStranger('POST', `/api/conversations/${from}/status`, { status: 'resolved' })).statusCode).toBe(
      404,
    );
    expect(
      (await byStranger('POST', `/api/conversations/${from}/assign`, { memberId: stranger.user.id })).statusCode,
    ).toBe(404);
    expect((await byStranger('POST', `/api/conversations/${from}/notes`, { text: 'x' })).statusCode).toBe(404);
  });
});
