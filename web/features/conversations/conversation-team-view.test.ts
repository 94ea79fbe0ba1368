import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationMessage } from '#contract/conversations';
import { conversationQueryKey } from '#web/lib/query-keys';
import { addConversationNote, applyNote } from './api/add-conversation-note';
import { assignConversation } from './api/assign-conversation';
import type { ConversationDetail } from './api/get-conversation';
import { conversationsQueryOptions, getConversations, invalidateConversationLists } from './api/get-conversations';
import { setConversationStatus } from './api/set-conversation-status';
import {
  activeQueueId,
  assigneeOptions,
  assigneeText,
  CONVERSATION_FILTER_LABELS,
  conversationFilters,
  conversationListParams,
  conversationStatusOf,
  filterEmptyState,
  filterListParams,
  isAssignedTo,
  isNote,
  noteView,
  parseFilterParam,
  parseQueueParam,
  queueBadgeText,
  statusActions,
  statusBadge,
  withFilterParam,
  withQueueParam,
} from './conversation-team-view';
import { previewText } from './conversation-view';

const ANA = '6f1c2a9e-3b7d-4c11-9a2e-5d8f0b1c2d3e';
const BRUNO = '9b2d4e6f-1a3c-4e5f-8a9b-0c1d2e3f4a5b';
const OWNER = 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';
const VENDAS = 'a3bb189e-8bf9-4888-9912-ace4e6543002';
const FINANCEIRO = 'd7c1f0a2-4b3e-4f5a-9c8d-7e6f5a4b3c2d';

const conversation = (over: Partial<Conversation> = {}): Conversation => ({
  phone: '5521998765432',
  contactId: null,
  name: null,
  lastMessageAt: '2026-11-22T12:00:00.000Z',
  lastMessageText: 'Olá',
  lastDirection: 'in',
  unread: 0,
  takenOverUntil: null,
  ...over,
});

const note = (over: Partial<ConversationMessage> = {}): ConversationMessage => ({
  id: 'n1',
  direction: 'out',
  source: 'note',
  text: '@Ana pode ver o pedido?',
  imageUrl: null,
  status: 'sent',
  failureReason: null,
  createdAt: '2026-11-22T12:05:00.000Z',
  author: 'Bruno',
  ...over,
});

describe('the list filters', () => {
  it('are four tabs, Todas the default', () => {
    expect(conversationFilters.map((f) => CONVERSATION_FILTER_LABELS[f])).toEqual([
      'Minhas',
      'Sem responsável',
      'Todas',
      'Resolvidas',
    ]);
  });

  it('ask the API for the caller’s, nobody’s, every or the resolved conversations', () => {
    expect(filterListParams('mine')).toEqual({ assignee: 'me' });
    expect(filterListParams('unassigned')).toEqual({ assignee: 'none' });
    expect(filterListParams('all')).toEqual({});
    expect(filterListParams('resolved')).toEqual({ status: 'resolved' });
    // A fresh object each time: the query key holds it.
    expect(filterListParams('mine')).not.toBe(filterListParams('mine'));
  });

  it('read ?filter= from the URL, anything else being Todas', () => {
    expect(parseFilterParam('mine')).toBe('mine');
    expect(parseFilterParam('unassigned')).toBe('unassigned');
    expect(parseFilterParam('resolved')).toBe('resolved');
    expect(parseFilterParam('all')).toBe('all');
    expect(parseFilterParam('MINE')).toBe('all');
    expect(parseFilterParam('')).toBe('all');
    expect(parseFilterParam(null)).toBe('all');
  });

  it('write ?filter=, keeping the open conversation and leaving the URL clean for Todas', () => {
    const open = new URLSearchParams(`phone=5521998765432&number=${VENDAS}`);
    const mine = withFilterParam(open, 'mine');
    expect(mine.toString()).toBe(`phone=5521998765432&number=${VENDAS}&filter=mine`);
    expect(open.toString()).toBe(`phone=5521998765432&number=${VENDAS}`);
    expect(withFilterParam(mine, 'resolved').get('filter')).toBe('resolved');
    expect(withFilterParam(mine, 'all').toString()).toBe(`phone=5521998765432&number=${VENDAS}`);
  });

  it('say why a filtered list is empty; Todas keeps the page’s own words', () => {
    expect(filterEmptyState('mine')?.title).toBe('Nenhuma conversa com você');
    expect(filterEmptyState('unassigned')?.title).toBe('Nenhuma conversa sem responsável');
    expect(filterEmptyState('resolved')?.title).toBe('Nenhuma conversa resolvida');
    expect(filterEmptyState('all')).toBeNull();
  });
});

describe('who has a conversation, and where it stands', () => {
  it("names the assignee as 'Com Ana'; nobody's says nothing", () => {
    expect(assigneeText(conversation({ assigneeId: ANA, assigneeName: 'Ana' }))).toBe('Com Ana');
    expect(assigneeText(conversation({ assigneeId: ANA, assigneeName: '  Ana Souza ' }))).toBe('Com Ana Souza');
    expect(assigneeText(conversation({ assigneeId: null, assigneeName: null }))).toBeNull();
    expect(assigneeText(conversation())).toBeNull();
    // A name the server did not send: no 'Com ' alone.
    expect(assigneeText(conversation({ assigneeId: ANA, assigneeName: null }))).toBeNull();
  });

  it('badges a pending or resolved conversation, not an open one', () => {
    expect(statusBadge(conversation({ status: 'pending' }))).toEqual({ label: 'Pendente', tone: 'blue' });
    expect(statusBadge(conversation({ status: 'resolved' }))).toEqual({ label: 'Resolvida', tone: 'green' });
    expect(statusBadge(conversation({ status: 'open' }))).toBeNull();
    // A conversation the server says nothing about is open.
    expect(conversationStatusOf(conversation())).toBe('open');
    expect(statusBadge(conversation())).toBeNull();
  });

  it("offers 'Resolver' while open or pending, 'Reabrir' once resolved, and the remaining state", () => {
    const labels = (status?: Conversation['status']) =>
      statusActions(conversation({ status })).map((a) => [a.status, a.label, a.primary]);
    expect(labels('open')).toEqual([
      ['resolved', 'Resolver', true],
      ['pending', 'Marcar como pendente', false],
    ]);
    expect(labels(undefined)).toEqual(labels('open'));
    expect(labels('pending')).toEqual([
      ['resolved', 'Resolver', true],
      ['open', 'Marcar como aberta', false],
    ]);
    expect(labels('resolved')).toEqual([
      ['open', 'Reabrir', true],
      ['pending', 'Marcar como pendente', false],
    ]);
  });

  it("tells the caller's own conversation (for 'Assumir')", () => {
    expect(isAssignedTo(conversation({ assigneeId: ANA }), ANA)).toBe(true);
    expect(isAssignedTo(conversation({ assigneeId: BRUNO }), ANA)).toBe(false);
    expect(isAssignedTo(conversation({ assigneeId: null }), ANA)).toBe(false);
    expect(isAssignedTo(conversation(), '')).toBe(false);
  });
});

describe('the assign control', () => {
  const directory = [
    { id: OWNER, name: 'Olívia', role: 'owner' as const },
    { id: ANA, name: 'Ana', role: 'agent' as const },
    { id: BRUNO, name: 'Bruno', role: 'manager' as const },
  ];

  it("lists 'Sem responsável', then the directory in its order, the caller marked", () => {
    expect(assigneeOptions(directory, conversation(), ANA)).toEqual([
      { value: '', label: 'Sem responsável' },
      { value: OWNER, label: 'Olívia' },
      { value: ANA, label: 'Ana (você)' },
      { value: BRUNO, label: 'Bruno' },
    ]);
  });

  it('keeps the assignee the directory does not list (not loaded yet, or deactivated)', () => {
    const gone = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(assigneeOptions(undefined, conversation({ assigneeId: ANA, assigneeName: 'Ana' }), BRUNO)).toEqual([
      { value: '', label: 'Sem responsável' },
      { value: ANA, label: 'Ana' },
    ]);
    expect(assigneeOptions(directory, conversation({ assigneeId: gone, assigneeName: null }), ANA).at(-1)).toEqual({
      value: gone,
      label: 'Membro da equipe',
    });
    // Listed already: not twice.
    expect(assigneeOptions(directory, conversation({ assigneeId: BRUNO, assigneeName: 'Bruno' }), ANA)).toHaveLength(4);
  });
});

describe('internal notes', () => {
  it("are told from the thread's other messages, with their author", () => {
    expect(isNote(note())).toBe(true);
    expect(isNote(note({ source: 'manual' }))).toBe(false);
    expect(noteView(note())).toEqual({ label: 'Nota interna', author: 'Bruno' });
    expect(noteView(note({ author: '  ' }))).toEqual({ label: 'Nota interna', author: null });
    expect(noteView(note({ author: undefined }))).toEqual({ label: 'Nota interna', author: null });
  });

  it("preview as the team's note in the list, not as 'Você'", () => {
    expect(
      previewText(conversation({ lastMessageText: 'Ligar amanhã', lastDirection: 'out', lastSource: 'note' })),
    ).toBe('Nota interna: Ligar amanhã');
  });
});

describe('the queue filter', () => {
  it('reads ?queue= as a queue id, anything else as every queue', () => {
    expect(parseQueueParam(FINANCEIRO)).toBe(FINANCEIRO);
    expect(parseQueueParam(` ${FINANCEIRO.toUpperCase()} `)).toBe(FINANCEIRO);
    expect(parseQueueParam('financeiro')).toBe('');
    expect(parseQueueParam('')).toBe('');
    expect(parseQueueParam(null)).toBe('');
  });

  it('keeps the other parameters in the URL and leaves it clean for every queue', () => {
    const params = new URLSearchParams('phone=5521998765432&filter=mine');
    expect(withQueueParam(params, FINANCEIRO).toString()).toBe(`phone=5521998765432&filter=mine&queue=${FINANCEIRO}`);
    expect(withQueueParam(new URLSearchParams(`queue=${FINANCEIRO}&filter=mine`), '').toString()).toBe('filter=mine');
    // The given parameters are not changed in place.
    expect(params.has('queue')).toBe(false);
  });

  it('drops a queue the account no longer has, and keeps the URL’s while the queues load', () => {
    expect(activeQueueId(FINANCEIRO, undefined)).toBe(FINANCEIRO);
    expect(activeQueueId(FINANCEIRO, [{ id: FINANCEIRO }])).toBe(FINANCEIRO);
    expect(activeQueueId(FINANCEIRO, [{ id: VENDAS }])).toBe('');
    expect(activeQueueId('', [{ id: FINANCEIRO }])).toBe('');
  });

  it('adds the queue to the tab’s parameters', () => {
    expect(conversationListParams('mine', FINANCEIRO)).toEqual({ assignee: 'me', queueId: FINANCEIRO });
    expect(conversationListParams('all', FINANCEIRO)).toEqual({ queueId: FINANCEIRO });
    expect(conversationListParams('resolved', '')).toEqual({ status: 'resolved' });
  });

  it('badges a conversation with its queue’s name, none without a queue', () => {
    expect(queueBadgeText(conversation({ queueId: FINANCEIRO, queueName: ' Financeiro ' }))).toBe('Financeiro');
    expect(queueBadgeText(conversation({ queueId: null, queueName: null }))).toBeNull();
    expect(queueBadgeText(conversation())).toBeNull();
    expect(queueBadgeText(conversation({ queueId: FINANCEIRO, queueName: '' }))).toBeNull();
  });
});

describe('the calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** Answers every call with `body`, recording method, URL and body. */
  const stubFetch = (body: unknown) => {
    const calls: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    return calls;
  };

  it('filter the list by assignee, status and queue, besides search and number', async () => {
    const calls = stubFetch({ conversations: [] });
    await getConversations('', undefined, '', filterListParams('mine'));
    await getConversations('maria', undefined, VENDAS, filterListParams('unassigned'));
    await getConversations('', undefined, '', filterListParams('resolved'));
    await getConversations('', undefined, '', filterListParams('all'));
    await getConversations('', undefined, '', conversationListParams('mine', FINANCEIRO));
    expect(calls.map((c) => c.url)).toEqual([
      '/api/conversations?limit=100&assignee=me',
      `/api/conversations?limit=100&search=maria&connectionId=${VENDAS}&assignee=none`,
      '/api/conversations?limit=100&status=resolved',
      '/api/conversations?limit=100',
      `/api/conversations?limit=100&assignee=me&queueId=${FINANCEIRO}`,
    ]);
  });

  it('assign, set the status and add a note on the thread they are given', async () => {
    const thread = { phone: '111111', connectionId: VENDAS };
    const calls = stubFetch({ success: true, message: 'ok', conversation: conversation(thread) });
    await assignConversation(thread, ANA);
    await assignConversation({ phone: '111111', connectionId: null }, null);
    await setConversationStatus(thread, 'resolved');
    await addConversationNote(thread, 'Cliente pediu retorno às 15h');
    expect(calls).toEqual([
      { method: 'POST', url: `/api/conversations/111111/assign?connectionId=${VENDAS}`, body: { memberId: ANA } },
      { method: 'POST', url: '/api/conversations/111111/assign', body: { memberId: null } },
      { method: 'POST', url: `/api/conversations/111111/status?connectionId=${VENDAS}`, body: { status: 'resolved' } },
      {
        method: 'POST',
        url: `/api/conversations/111111/notes?connectionId=${VENDAS}`,
        body: { text: 'Cliente pediu retorno às 15h' },
      },
    ]);
  });
});

describe('cached lists and conversations', () => {
  it('key each filter apart, the unfiltered key as before, all of them refreshed as lists', async () => {
    const all = conversationsQueryOptions('').queryKey;
    const mine = conversationsQueryOptions('', true, '', filterListParams('mine')).queryKey;
    const resolved = conversationsQueryOptions('', true, VENDAS, filterListParams('resolved')).queryKey;
    const queued = conversationsQueryOptions('', true, '', conversationListParams('all', FINANCEIRO)).queryKey;
    expect(queued).toEqual(['/api/conversations', { search: '', limit: 100, queueId: FINANCEIRO }]);
    expect(all).toEqual(['/api/conversations', { search: '', limit: 100 }]);
    expect(mine).toEqual(['/api/conversations', { search: '', limit: 100, assignee: 'me' }]);
    expect(resolved).toEqual([
      '/api/conversations',
      { search: '', limit: 100, connectionId: VENDAS, status: 'resolved' },
    ]);
    const client = new QueryClient();
    for (const key of [all, mine, resolved]) client.setQueryData(key, { conversations: [] });
    await invalidateConversationLists(client);
    for (const key of [all, mine, resolved]) expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it("put a new note into its thread's open page at once, not the contact's other number", async () => {
    const client = new QueryClient();
    const onVendas = conversation({ phone: '111111', connectionId: VENDAS });
    const onOther = conversation({ phone: '111111', connectionId: OWNER });
    const first = note({ id: 'm0', source: 'contact', direction: 'in', createdAt: '2026-11-22T12:00:00.000Z' });
    client.setQueryData<ConversationDetail>(conversationQueryKey('111111', VENDAS), {
      conversation: onVendas,
      messages: [first],
    });
    client.setQueryData<ConversationDetail>(conversationQueryKey('111111', OWNER), {
      conversation: onOther,
      messages: [],
    });
    const added = note();
    await applyNote(client, { phone: '111111', connectionId: VENDAS }, added);
    expect(client.getQueryData<ConversationDetail>(conversationQueryKey('111111', VENDAS))?.messages).toEqual([
      first,
      added,
    ]);
    expect(client.getQueryData<ConversationDetail>(conversationQueryKey('111111', OWNER))?.messages).toEqual([]);
    // Applied twice (the answer, then a poll that already has it): once in the thread.
    await applyNote(client, { phone: '111111', connectionId: VENDAS }, added);
    expect(client.getQueryData<ConversationDetail>(conversationQueryKey('111111', VENDAS))?.messages).toHaveLength(2);
  });
});
