import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationMessage } from '#contract/conversations';
import { conversationQueryKey } from '#web/lib/query-keys';
import { applyConversation, type ConversationDetail, fetchConversation } from './api/get-conversation';
import {
  conversationsQueryOptions,
  invalidateConversationLists,
  updateConversationInLists,
} from './api/get-conversations';
import { releaseConversation } from './api/release-conversation';
import { sendConversationMessage } from './api/send-conversation-message';
import { takeOverConversation } from './api/take-over-conversation';
import {
  conversationPath,
  conversationTitle,
  findConversation,
  handoffState,
  isTakenOver,
  mayHaveOlder,
  mergeMessages,
  messageOptionsView,
  messageStatusView,
  messageTextView,
  messageTimeText,
  olderCursor,
  paneKeyOf,
  parseNumberParam,
  parsePhoneParam,
  parseThreadParams,
  previewText,
  replaceConversation,
  sameThread,
  sourceLabel,
  threadKey,
  threadOf,
  unreadText,
  withThreadParams,
} from './conversation-view';

// Local times, so the expectations hold in any time zone.
const now = new Date(2026, 10, 22, 10, 0).getTime();
const at = (day: number, h: number, m: number) => new Date(2026, 10, day, h, m).toISOString();

const conversation = (over: Partial<Conversation> = {}): Conversation => ({
  phone: '5521998765432',
  contactId: null,
  name: null,
  lastMessageAt: at(22, 9, 0),
  lastMessageText: 'Olá',
  lastDirection: 'in',
  unread: 0,
  takenOverUntil: null,
  ...over,
});

const message = (id: string, createdAt: string, over: Partial<ConversationMessage> = {}): ConversationMessage => ({
  id,
  direction: 'in',
  source: 'contact',
  text: id,
  imageUrl: null,
  status: 'received',
  failureReason: null,
  createdAt,
  ...over,
});

describe('handoff banner', () => {
  it('says who answers: the person until the time the bot comes back, else the chatbot', () => {
    expect(handoffState(null, now)).toEqual({ active: false, text: 'Chatbot atendendo' });
    expect(handoffState(at(22, 14, 5), now)).toEqual({
      active: true,
      text: 'Você está atendendo — o chatbot volta a responder às 14:05',
    });
    expect(handoffState(at(23, 9, 30), now).text).toBe(
      'Você está atendendo — o chatbot volta a responder amanhã às 09:30',
    );
    expect(handoffState(at(28, 8, 0), now).text).toBe(
      'Você está atendendo — o chatbot volta a responder em 28/11 às 08:00',
    );
  });

  it('treats a past or exact end, and a broken date, as the bot answering', () => {
    expect(handoffState(at(22, 9, 59), now).active).toBe(false);
    expect(handoffState(new Date(now).toISOString(), now).active).toBe(false);
    expect(handoffState('nunca', now).active).toBe(false);
    expect(isTakenOver({ takenOverUntil: at(22, 10, 1) }, now)).toBe(true);
    expect(isTakenOver({ takenOverUntil: at(22, 9, 0) }, now)).toBe(false);
    expect(isTakenOver({ takenOverUntil: null }, now)).toBe(false);
  });
});

describe('delivery state', () => {
  it('maps each status to its text and tick', () => {
    expect(messageStatusView('received')).toEqual({ label: null, icon: null });
    expect(messageStatusView('queued')).toEqual({ label: 'Na fila', icon: 'clock' });
    expect(messageStatusView('sent')).toEqual({ label: 'Enviada', icon: 'check' });
    expect(messageStatusView('delivered')).toEqual({ label: 'Entregue', icon: 'double' });
    expect(messageStatusView('read')).toEqual({ label: 'Lida', icon: 'read' });
    expect(messageStatusView('failed')).toEqual({ label: 'Falhou', icon: 'failed' });
  });

  it('shows an unknown status raw, without a tick', () => {
    expect(messageStatusView('pending')).toEqual({ label: 'pending', icon: null });
    expect(messageStatusView('toString')).toEqual({ label: 'toString', icon: null });
  });

  it('names who sent an outbound message, never the contact', () => {
    expect(sourceLabel({ direction: 'out', source: 'bot' })).toBe('Chatbot');
    expect(sourceLabel({ direction: 'out', source: 'campaign' })).toBe('Campanha');
    expect(sourceLabel({ direction: 'out', source: 'manual' })).toBe('Atendente');
    expect(sourceLabel({ direction: 'in', source: 'contact' })).toBeNull();
    // With the author the server names: the campaign by its name, the person by theirs.
    expect(sourceLabel({ direction: 'out', source: 'campaign', author: 'Black Friday' })).toBe(
      'Campanha: Black Friday',
    );
    expect(sourceLabel({ direction: 'out', source: 'manual', author: 'Rita Souza' })).toBe('Rita Souza');
    expect(sourceLabel({ direction: 'out', source: 'bot', author: null })).toBe('Chatbot');
    expect(sourceLabel({ direction: 'out', source: 'manual', author: '  ' })).toBe('Atendente');
  });

  it('times a bubble with the hour today and the full date before', () => {
    expect(messageTimeText(at(22, 8, 7), now)).toBe('08:07');
    expect(messageTimeText(at(21, 23, 59), now)).toBe('21/11/2026 23:59');
    expect(messageTimeText('x', now)).toBe('');
  });
});

describe('merging pages of messages', () => {
  const a = message('a', at(22, 8, 0));
  const b = message('b', at(22, 8, 1));
  const c = message('c', at(22, 8, 2));
  const d = message('d', at(22, 8, 3));

  it('joins an older page and the newest one in time order, each message once', () => {
    expect(mergeMessages([a, b, c], [c, d]).map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(mergeMessages([c, d], [a, b]).map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(mergeMessages([], [a, b]).map((m) => m.id)).toEqual(['a', 'b']);
    expect(mergeMessages()).toEqual([]);
  });

  it('keeps the later copy of a message (the freshest delivery state) and same-time messages in order', () => {
    const sent = message('x', at(22, 8, 1), { direction: 'out', status: 'sent' });
    const read = { ...sent, status: 'read' as const };
    const merged = mergeMessages([a, sent], [read, c]);
    expect(merged.map((m) => m.id)).toEqual(['a', 'x', 'c']);
    expect(merged[1].status).toBe('read');
    const twin1 = message('t1', at(22, 9, 0));
    const twin2 = message('t2', at(22, 9, 0));
    expect(mergeMessages([twin1, twin2]).map((m) => m.id)).toEqual(['t1', 't2']);
  });

  it('asks for the page before the oldest message, while pages come back full', () => {
    expect(olderCursor([b, c])).toBe(b.createdAt);
    expect(olderCursor([])).toBeUndefined();
    expect(mayHaveOlder(50)).toBe(true);
    expect(mayHaveOlder(49)).toBe(false);
    expect(mayHaveOlder(3, 3)).toBe(true);
  });
});

describe('list items', () => {
  it('previews the last message on one line, marking ours and image-only ones', () => {
    expect(previewText(conversation({ lastMessageText: 'Oi,\n  tudo bem?' }))).toBe('Oi, tudo bem?');
    expect(previewText(conversation({ lastMessageText: 'Pode sim', lastDirection: 'out' }))).toBe('Você: Pode sim');
    // The bot's reply is the bot's, not 'Você'.
    expect(previewText(conversation({ lastMessageText: 'Olá!', lastDirection: 'out', lastSource: 'bot' }))).toBe(
      'Chatbot: Olá!',
    );
    expect(previewText(conversation({ lastMessageText: 'Pode sim', lastDirection: 'out', lastSource: 'manual' }))).toBe(
      'Você: Pode sim',
    );
    // A teammate's answer names them (first name); one's own stays 'Você'.
    const byAna = conversation({
      lastMessageText: 'Já verifiquei',
      lastDirection: 'out',
      lastSource: 'manual',
      lastAuthorId: 'ana-id',
      lastAuthorName: 'Ana Paula Souza',
    });
    expect(previewText(byAna, 'owner-id')).toBe('Ana: Já verifiquei');
    expect(previewText(byAna, 'ana-id')).toBe('Você: Já verifiquei');
    expect(previewText({ ...byAna, lastAuthorName: null }, 'owner-id')).toBe('Você: Já verifiquei');
    expect(previewText(conversation({ lastMessageText: '  ' }))).toBe('Imagem');
    const long = previewText(conversation({ lastMessageText: 'a'.repeat(200) }));
    expect(long).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
    // Cut before an emoji rather than through it: no half of a surrogate pair or of a 👍🏽.
    const emoji = previewText(conversation({ lastMessageText: `${'a'.repeat(78)}👍🏽 obrigado` }));
    expect(emoji).toBe(`${'a'.repeat(78)}…`);
    const fits = previewText(conversation({ lastMessageText: `${'a'.repeat(75)}👍🏽 obrigado` }));
    expect(fits).toBe(`${'a'.repeat(75)}👍🏽…`);
    expect(previewText(conversation({ lastMessageText: '📎 catalogo.pdf' }))).toBe('📎 catalogo.pdf');
  });

  it('titles a conversation with the name, else the formatted number', () => {
    expect(conversationTitle(conversation({ name: 'Maria' }))).toBe('Maria');
    expect(conversationTitle(conversation({ name: '  ' }))).toBe('+55 21 99876-5432');
    expect(conversationTitle(conversation())).toBe('+55 21 99876-5432');
  });

  it('caps the unread badge', () => {
    expect(unreadText(3)).toBe('3');
    expect(unreadText(99)).toBe('99');
    expect(unreadText(100)).toBe('99+');
  });

  it('replaces one conversation by phone and leaves the others', () => {
    const one = conversation({ phone: '111111', unread: 2 });
    const two = conversation({ phone: '222222', unread: 1 });
    const read = { ...one, unread: 0 };
    expect(replaceConversation([one, two], read)).toEqual([read, two]);
    expect(replaceConversation([two], read)).toEqual([two]);
  });

  it('accepts only digits that can be a conversation in ?phone=', () => {
    expect(parsePhoneParam('5521998765432')).toBe('5521998765432');
    expect(parsePhoneParam('+55 (21) 99876-5432')).toBe('5521998765432');
    expect(parsePhoneParam('123')).toBeNull();
    expect(parsePhoneParam('abc')).toBeNull();
    expect(parsePhoneParam(null)).toBeNull();
    expect(parsePhoneParam('1'.repeat(21))).toBeNull();
  });
});

describe('cached lists', () => {
  it('take a conversation the server returned, telling when a badge changed, and leave open conversations alone', async () => {
    const client = new QueryClient();
    const unread = conversation({ phone: '111111', unread: 2 });
    const other = conversation({ phone: '222222' });
    const listKey = conversationsQueryOptions('').queryKey;
    const searchKey = conversationsQueryOptions('ma').queryKey;
    client.setQueryData(listKey, { conversations: [unread, other] });
    client.setQueryData(searchKey, { conversations: [other] });
    client.setQueryData(conversationQueryKey('111111'), { conversation: unread, messages: [] });

    const read = { ...unread, unread: 0 };
    expect(updateConversationInLists(client, read)).toBe(true);
    expect(client.getQueryData(listKey)).toEqual({ conversations: [read, other] });
    expect(client.getQueryData(searchKey)).toEqual({ conversations: [other] });
    // Same again: nothing changed, no refetch needed and no new data for the list to render.
    const cached = client.getQueryData(listKey);
    expect(updateConversationInLists(client, read)).toBe(false);
    expect(client.getQueryData(listKey)).toBe(cached);
    const takenOver = { ...read, takenOverUntil: at(22, 12, 0) };
    expect(updateConversationInLists(client, takenOver)).toBe(true);

    await invalidateConversationLists(client);
    expect(client.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(searchKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(conversationQueryKey('111111'))?.isInvalidated).toBe(false);
  });
});

describe('messageOptionsView', () => {
  const options: NonNullable<ConversationMessage['buttons']>['options'] = [
    { text: 'Ligar para suporte', type: 'phone', value: '5511999999999' },
    { text: 'Central de ajuda', type: 'url', value: 'https://www.exemplo.com.br/ajuda' },
    { text: 'Falar com atendente', type: 'quick_reply', value: 'atendente' },
  ];

  it('numbers the options of a menu, with where links and phones lead', () => {
    expect(messageOptionsView({ direction: 'out', buttons: { numbered: true, options } })).toEqual({
      label: 'Menu enviado (o cliente responde com o número)',
      items: [
        { marker: '1.', text: 'Ligar para suporte', type: 'phone', detail: '+55 11 99999-9999' },
        { marker: '2.', text: 'Central de ajuda', type: 'url', detail: 'https://www.exemplo.com.br/ajuda' },
        { marker: '3.', text: 'Falar com atendente', type: 'quick_reply', detail: null },
      ],
    });
  });

  it('lists WhatsApp buttons without numbers', () => {
    const view = messageOptionsView({ direction: 'out', buttons: { numbered: false, options: options.slice(2) } });
    expect(view).toEqual({
      label: 'Botões enviados',
      items: [{ marker: null, text: 'Falar com atendente', type: 'quick_reply', detail: null }],
    });
  });

  it('is null without buttons, or on an inbound message', () => {
    expect(messageOptionsView({ direction: 'out' })).toBeNull();
    expect(messageOptionsView({ direction: 'out', buttons: { numbered: true, options: [] } })).toBeNull();
    expect(messageOptionsView({ direction: 'in', buttons: { numbered: true, options } })).toBeNull();
  });
});

describe('messageTextView', () => {
  it('reads a numbered-menu answer as the number and the option it chose', () => {
    expect(
      messageTextView({ direction: 'in', text: '2', choice: { option: 'Falar com atendente', number: 2 } }),
    ).toEqual({ text: '2 — Falar com atendente', caption: null });
  });

  it("keeps other answers as sent, with 'escolheu: …' when the words are not the option's", () => {
    expect(messageTextView({ direction: 'in', text: 'ligar', choice: { option: 'Ligar para suporte' } })).toEqual({
      text: 'ligar',
      caption: 'escolheu: Ligar para suporte',
    });
    // A WhatsApp button's title (or the option typed back): the text says it, the caption says it was a button.
    expect(messageTextView({ direction: 'in', text: 'Ver planos', choice: { option: 'Ver planos' } })).toEqual({
      text: 'Ver planos',
      caption: 'Botão escolhido',
    });
    expect(messageTextView({ direction: 'in', text: 'ver PLANOS!', choice: { option: 'Ver planos' } }).caption).toBe(
      'Botão escolhido',
    );
  });

  it('shows any other message as it is', () => {
    expect(messageTextView({ direction: 'in', text: 'atendente' })).toEqual({ text: 'atendente', caption: null });
    expect(messageTextView({ direction: 'out', text: 'Olá', choice: { option: 'x', number: 1 } })).toEqual({
      text: 'Olá',
      caption: null,
    });
  });
});

// Two of the account's numbers ('Vendas' and 'Suporte'), as /api/connections ids.
const VENDAS = 'a3bb189e-8bf9-4888-9912-ace4e6543002';
const SUPORTE = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('threads (a contact on one number)', () => {
  it('names a conversation by its number and phone', () => {
    const onVendas = conversation({ phone: '111111', connectionId: VENDAS });
    expect(threadOf(onVendas)).toEqual({ phone: '111111', connectionId: VENDAS });
    expect(threadOf(conversation({ phone: '111111' }))).toEqual({ phone: '111111', connectionId: null });
    expect(threadKey(onVendas)).toBe(`${VENDAS}:111111`);
    expect(threadKey({ phone: '111111', connectionId: null })).toBe(':111111');
    expect(threadKey({ phone: '111111', connectionId: SUPORTE })).not.toBe(threadKey(onVendas));
  });

  it('tells the same contact on another number apart', () => {
    const vendas = { phone: '111111', connectionId: VENDAS };
    expect(sameThread(vendas, { phone: '111111', connectionId: VENDAS })).toBe(true);
    expect(sameThread(vendas, { phone: '111111', connectionId: SUPORTE })).toBe(false);
    expect(sameThread(vendas, { phone: '222222', connectionId: VENDAS })).toBe(false);
    expect(sameThread(vendas, { phone: '111111', connectionId: null })).toBe(false);
    // A missing number equals only a missing number (undefined and null alike).
    expect(sameThread({ phone: '111111', connectionId: null }, { phone: '111111' })).toBe(true);
  });

  it("finds a list entry by thread; without a number, the contact's first (latest) one", () => {
    const vendas = conversation({ phone: '111111', connectionId: VENDAS, lastMessageText: 'Quero comprar' });
    const suporte = conversation({ phone: '111111', connectionId: SUPORTE, lastMessageText: 'Preciso de ajuda' });
    const other = conversation({ phone: '222222', connectionId: VENDAS });
    const list = [other, suporte, vendas];
    expect(findConversation(list, { phone: '111111', connectionId: VENDAS })).toBe(vendas);
    expect(findConversation(list, { phone: '111111', connectionId: SUPORTE })).toBe(suporte);
    expect(findConversation(list, { phone: '111111', connectionId: null })).toBe(suporte);
    // A number the list does not show: not another number's conversation.
    expect(findConversation([other, vendas], { phone: '111111', connectionId: SUPORTE })).toBeUndefined();
    expect(findConversation(undefined, { phone: '111111', connectionId: null })).toBeUndefined();
  });

  it('replaces one conversation of a contact and leaves the one on the other number', () => {
    const vendas = conversation({ phone: '111111', connectionId: VENDAS, unread: 2 });
    const suporte = conversation({ phone: '111111', connectionId: SUPORTE, unread: 3 });
    const read = { ...suporte, unread: 0 };
    expect(replaceConversation([vendas, suporte], read)).toEqual([vendas, read]);
  });
});

describe('the URL of a thread', () => {
  it('accepts only a uuid in ?number=', () => {
    expect(parseNumberParam(VENDAS)).toBe(VENDAS);
    expect(parseNumberParam('vendas')).toBeNull();
    expect(parseNumberParam('123')).toBeNull();
    expect(parseNumberParam('')).toBeNull();
    expect(parseNumberParam(null)).toBeNull();
  });

  it('reads ?phone=&number=, the number optional and meaningless alone', () => {
    const read = (search: string) => parseThreadParams(new URLSearchParams(search));
    expect(read(`phone=5521998765432&number=${VENDAS}`)).toEqual({ phone: '5521998765432', connectionId: VENDAS });
    expect(read('phone=5521998765432')).toEqual({ phone: '5521998765432', connectionId: null });
    expect(read('phone=5521998765432&number=x')).toEqual({ phone: '5521998765432', connectionId: null });
    expect(read(`number=${VENDAS}`)).toBeNull();
    expect(read(`phone=12&number=${VENDAS}`)).toBeNull();
  });

  it('opens, switches and closes a thread, keeping the other parameters', () => {
    const start = new URLSearchParams('tab=x');
    const opened = withThreadParams(start, { phone: '111111', connectionId: VENDAS });
    expect(opened.toString()).toBe(`tab=x&phone=111111&number=${VENDAS}`);
    expect(start.toString()).toBe('tab=x');
    // Another contact without a number: the old number does not stay.
    expect(withThreadParams(opened, { phone: '222222', connectionId: null }).toString()).toBe('tab=x&phone=222222');
    expect(withThreadParams(opened, null).toString()).toBe('tab=x');
  });

  it('keys the pane by thread, keeping the key when the URL comes to name the number', () => {
    const opened = { phone: '111111', connectionId: null };
    const named = { phone: '111111', connectionId: VENDAS };
    expect(paneKeyOf(named, null)).toBe(threadKey(named));
    const renamed = { thread: threadKey(named), pane: threadKey(opened) };
    expect(paneKeyOf(opened, renamed)).toBe(threadKey(opened));
    expect(paneKeyOf(named, renamed)).toBe(threadKey(opened));
    // Another conversation of the same contact is another pane.
    expect(paneKeyOf({ phone: '111111', connectionId: SUPORTE }, renamed)).toBe(`${SUPORTE}:111111`);
  });

  it('round-trips with the notification link of a conversation', async () => {
    const { notificationLinks } = await import('#contract/notifications');
    const link = (phone: string, id?: string) =>
      new URL(notificationLinks.conversation(phone, id), 'http://x').searchParams;
    expect(parseThreadParams(link('111111', VENDAS))).toEqual({ phone: '111111', connectionId: VENDAS });
    expect(parseThreadParams(link('111111'))).toEqual({ phone: '111111', connectionId: null });
  });
});

describe('the API of a thread', () => {
  it('adds connectionId to the path when the thread names its number', () => {
    expect(conversationPath({ phone: '111111', connectionId: null })).toBe('/api/conversations/111111');
    expect(conversationPath({ phone: '111111', connectionId: VENDAS }, '/takeover')).toBe(
      `/api/conversations/111111/takeover?connectionId=${VENDAS}`,
    );
    expect(conversationPath({ phone: '111111', connectionId: VENDAS }, '', { limit: '50' })).toBe(
      `/api/conversations/111111?limit=50&connectionId=${VENDAS}`,
    );
    expect(conversationPath({ phone: '111111', connectionId: null }, '', { limit: '50' })).toBe(
      '/api/conversations/111111?limit=50',
    );
  });

  describe('calls', () => {
    afterEach(() => vi.unstubAllGlobals());

    /** Answers every call with `body`, recording method, URL and body. */
    const stubFetch = (body: unknown) => {
      const calls: { method: string; url: string; body: unknown }[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init: RequestInit) => {
          calls.push({
            method: init.method ?? 'GET',
            url,
            body: init.body ? JSON.parse(String(init.body)) : undefined,
          });
          return new Response(JSON.stringify(body), { status: 200 });
        }),
      );
      return calls;
    };

    it('send, take over and release the thread they are given', async () => {
      const onSuporte = { phone: '111111', connectionId: SUPORTE };
      const answer = { success: true, message: 'ok', conversation: conversation(onSuporte) };
      const calls = stubFetch(answer);
      await sendConversationMessage(onSuporte, 'Olá');
      await takeOverConversation(onSuporte);
      await releaseConversation(onSuporte);
      await releaseConversation({ phone: '111111', connectionId: null });
      expect(calls).toEqual([
        { method: 'POST', url: `/api/conversations/111111/messages?connectionId=${SUPORTE}`, body: { text: 'Olá' } },
        { method: 'POST', url: `/api/conversations/111111/takeover?connectionId=${SUPORTE}`, body: undefined },
        { method: 'POST', url: `/api/conversations/111111/release?connectionId=${SUPORTE}`, body: undefined },
        { method: 'POST', url: '/api/conversations/111111/release', body: undefined },
      ]);
    });

    it('fetch a thread by its number; asked without one, cache the answer under the number it is on', async () => {
      const client = new QueryClient();
      const detail: ConversationDetail = {
        conversation: conversation({ phone: '111111', connectionId: SUPORTE }),
        messages: [],
      };
      const calls = stubFetch(detail);
      await fetchConversation(client, { phone: '111111', connectionId: SUPORTE });
      expect(calls.map((c) => c.url)).toEqual([`/api/conversations/111111?limit=50&connectionId=${SUPORTE}`]);
      expect(client.getQueryData(conversationQueryKey('111111', SUPORTE))).toBeUndefined();

      expect(await fetchConversation(client, { phone: '111111', connectionId: null })).toEqual(detail);
      expect(calls[1].url).toBe('/api/conversations/111111?limit=50');
      expect(client.getQueryData(conversationQueryKey('111111', SUPORTE))).toEqual(detail);
      expect(client.getQueryData(conversationQueryKey('111111', VENDAS))).toBeUndefined();
    });
  });
});

describe('cached conversations of a contact on two numbers', () => {
  it("have keys of their own, under the contact's, which refreshing the lists leaves alone", async () => {
    expect(conversationQueryKey('111111')).toEqual(['/api/conversations', '111111']);
    expect(conversationQueryKey('111111', null)).toEqual(['/api/conversations', '111111']);
    expect(conversationQueryKey('111111', VENDAS)).toEqual(['/api/conversations', '111111', VENDAS]);
    const client = new QueryClient();
    const listKey = conversationsQueryOptions('').queryKey;
    client.setQueryData(listKey, { conversations: [] });
    client.setQueryData(conversationQueryKey('111111', VENDAS), { conversation: conversation(), messages: [] });
    await invalidateConversationLists(client);
    expect(client.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(conversationQueryKey('111111', VENDAS))?.isInvalidated).toBe(false);
  });

  it('take what the server returned into the lists as separate entries', () => {
    const client = new QueryClient();
    const vendas = conversation({ phone: '111111', connectionId: VENDAS, unread: 2 });
    const suporte = conversation({ phone: '111111', connectionId: SUPORTE, unread: 1 });
    const listKey = conversationsQueryOptions('').queryKey;
    const suporteKey = conversationsQueryOptions('', true, SUPORTE).queryKey;
    client.setQueryData(listKey, { conversations: [vendas, suporte] });
    client.setQueryData(suporteKey, { conversations: [suporte] });

    const read = { ...vendas, unread: 0 };
    expect(updateConversationInLists(client, read)).toBe(true);
    expect(client.getQueryData(listKey)).toEqual({ conversations: [read, suporte] });
    // The list of the other number does not show it, and stays as it was.
    expect(client.getQueryData(suporteKey)).toEqual({ conversations: [suporte] });
  });

  it("apply an action's answer to that conversation only, also while open without a number", async () => {
    const client = new QueryClient();
    const vendas = conversation({ phone: '111111', connectionId: VENDAS });
    const suporte = conversation({ phone: '111111', connectionId: SUPORTE });
    const listKey = conversationsQueryOptions('').queryKey;
    client.setQueryData(listKey, { conversations: [vendas, suporte] });
    client.setQueryData<ConversationDetail>(conversationQueryKey('111111', VENDAS), {
      conversation: vendas,
      messages: [],
    });
    client.setQueryData<ConversationDetail>(conversationQueryKey('111111', SUPORTE), {
      conversation: suporte,
      messages: [],
    });
    // Opened from an old link: the server answered its latest, on Suporte.
    client.setQueryData<ConversationDetail>(conversationQueryKey('111111'), { conversation: suporte, messages: [] });

    const taken = { ...suporte, takenOverUntil: at(22, 12, 0) };
    await applyConversation(client, taken);
    const detailOf = (key: readonly unknown[]) => client.getQueryData<ConversationDetail>(key)?.conversation;
    expect(detailOf(conversationQueryKey('111111', SUPORTE))).toEqual(taken);
    expect(detailOf(conversationQueryKey('111111'))).toEqual(taken);
    expect(detailOf(conversationQueryKey('111111', VENDAS))).toEqual(vendas);
    expect(client.getQueryData(listKey)).toEqual({ conversations: [vendas, taken] });
  });
});
