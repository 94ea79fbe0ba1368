import type {
  Conversation,
  ConversationButton,
  ConversationMessage,
  ConversationMessageStatus,
  MessageSource,
} from '#contract/conversations';
import { conversationThreadQuery, messageSourceLabels } from '#contract/conversations';
import { formatPhone, phoneDigits } from '#contract/phone';
import { normalizeForMatch } from '#contract/text-match';
import { formatDateTime } from '#web/lib/format';

/** Messages per page of a conversation; a shorter page means there is nothing older. */
export const MESSAGES_PAGE_SIZE = 50;
/** Conversations the list shows (the API allows up to 200). */
export const CONVERSATIONS_LIMIT = 100;
/** Polling while the page is open (TanStack Query pauses it while the browser tab is hidden). */
export const LIST_POLL_MS = 5_000;
export const CONVERSATION_POLL_MS = 3_000;

/** `?phone=` from the URL: its digits when they can be a conversation id, else null. */
export function parsePhoneParam(value: string | null | undefined): string | null {
  if (!value) return null;
  const digits = phoneDigits(value);
  return /^\d{6,20}$/.test(digits) ? digits : null;
}

/**
 * One conversation: a contact on one of the account's numbers (a contact who wrote to two numbers has
 * two). `connectionId` null: the one the server picks, the contact's latest (old links, the contacts
 * page), or a conversation the server gave no number.
 */
export interface Thread {
  phone: string;
  connectionId: string | null;
}

/** The thread a conversation (or anything with its phone and number) is. */
export function threadOf(c: Pick<Conversation, 'phone' | 'connectionId'>): Thread {
  return { phone: c.phone, connectionId: c.connectionId ?? null };
}

/** A string naming one thread, for React keys: '<connectionId>:<phone>' (':<phone>' without a number). */
export function threadKey(t: Pick<Conversation, 'phone' | 'connectionId'>): string {
  return `${t.connectionId ?? ''}:${t.phone}`;
}

/** Same contact on the same number (a missing number equals only a missing number). */
export function sameThread(
  a: Pick<Conversation, 'phone' | 'connectionId'>,
  b: Pick<Conversation, 'phone' | 'connectionId'>,
): boolean {
  return a.phone === b.phone && (a.connectionId ?? null) === (b.connectionId ?? null);
}

/** `?number=` from the URL: the number's id when it is one the API accepts (a uuid), else null. */
export function parseNumberParam(value: string | null | undefined): string | null {
  if (!value) return null;
  return conversationThreadQuery.safeParse({ connectionId: value }).success ? value : null;
}

/** The thread `?phone=&number=` name; null without a valid phone (a number alone means nothing). */
export function parseThreadParams(params: URLSearchParams): Thread | null {
  const phone = parsePhoneParam(params.get('phone'));
  return phone ? { phone, connectionId: parseNumberParam(params.get('number')) } : null;
}

/** `params` opening `thread` (`?phone=&number=`; no `number` without one), or closing it (null). */
export function withThreadParams(params: URLSearchParams, thread: Thread | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (thread) next.set('phone', thread.phone);
  else next.delete('phone');
  if (thread?.connectionId) next.set('number', thread.connectionId);
  else next.delete('number');
  return next;
}

/** A thread the URL came to name after it was opened without a number: its key then, and now. */
export interface RenamedThread {
  thread: string;
  pane: string;
}

/**
 * The open conversation pane's React key: the thread's, so another conversation starts over; but a
 * pane opened without a number keeps its key once the URL names the number the server answered
 * (the same conversation: its loaded pages and a reply being typed stay).
 */
export function paneKeyOf(thread: Thread, renamed: RenamedThread | null): string {
  const key = threadKey(thread);
  return renamed?.thread === key ? renamed.pane : key;
}

/**
 * The API path of a thread: `/api/conversations/<phone><suffix>?…`, with `connectionId` when the
 * thread names its number (without it the server picks the contact's latest conversation).
 */
export function conversationPath(thread: Thread, suffix = '', query: Record<string, string> = {}): string {
  const params = new URLSearchParams(query);
  if (thread.connectionId) params.set('connectionId', thread.connectionId);
  const search = params.toString();
  return `/api/conversations/${encodeURIComponent(thread.phone)}${suffix}${search ? `?${search}` : ''}`;
}

/**
 * The list entry of `thread`. Without a number, the contact's first one: the list is by last
 * activity, as the server's pick is (until the server answers which one it is).
 */
export function findConversation(list: readonly Conversation[] | undefined, thread: Thread): Conversation | undefined {
  if (!list) return undefined;
  const exact = list.find((c) => sameThread(c, thread));
  if (exact || thread.connectionId) return exact;
  return list.find((c) => c.phone === thread.phone);
}

/** The contact's name, else the formatted number. */
export function conversationTitle(c: Pick<Conversation, 'name' | 'phone'>): string {
  return c.name?.trim() || formatPhone(c.phone);
}

/** Whether a person is answering (the bot is silent) at `now`. */
export function isTakenOver(c: Pick<Conversation, 'takenOverUntil'>, now: number): boolean {
  if (!c.takenOverUntil) return false;
  const until = Date.parse(c.takenOverUntil);
  return Number.isFinite(until) && until > now;
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** 'às 14:05' today, 'amanhã às 14:05', else 'em 24/11 às 14:05' (browser time zone). */
export function whenText(value: Date, now: number): string {
  const today = new Date(now);
  if (sameDay(value, today)) return `às ${hhmm(value)}`;
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  if (sameDay(value, tomorrow)) return `amanhã às ${hhmm(value)}`;
  return `em ${pad(value.getDate())}/${pad(value.getMonth() + 1)} às ${hhmm(value)}`;
}

export type HandoffState = { active: true; text: string } | { active: false; text: string };

/** The banner above the messages: who answers this contact now. */
export function handoffState(takenOverUntil: string | null, now: number): HandoffState {
  if (!takenOverUntil || !isTakenOver({ takenOverUntil }, now)) return { active: false, text: 'Chatbot atendendo' };
  const until = new Date(takenOverUntil);
  return { active: true, text: `Você está atendendo — o chatbot volta a responder ${whenText(until, now)}` };
}

export type StatusIcon = 'clock' | 'check' | 'double' | 'read' | 'failed';

export interface MessageStatusView {
  /** What a screen reader (and the bubble) says; null for inbound messages. */
  label: string | null;
  icon: StatusIcon | null;
}

const STATUS_VIEWS: Record<ConversationMessageStatus, MessageStatusView> = {
  received: { label: null, icon: null },
  queued: { label: 'Na fila', icon: 'clock' },
  sent: { label: 'Enviada', icon: 'check' },
  delivered: { label: 'Entregue', icon: 'double' },
  read: { label: 'Lida', icon: 'read' },
  failed: { label: 'Falhou', icon: 'failed' },
};

/** Delivery state of a message as the bubble shows it; an unknown status reads as its raw value. */
export function messageStatusView(status: string): MessageStatusView {
  return Object.hasOwn(STATUS_VIEWS, status)
    ? STATUS_VIEWS[status as ConversationMessageStatus]
    : { label: status, icon: null };
}

/**
 * Who wrote an outbound message: 'Chatbot', 'Campanha: Black Friday', the person's name ('Atendente'
 * and 'Campanha' when the server names no one); null for the contact's own.
 */
export function sourceLabel(m: Pick<ConversationMessage, 'direction' | 'source' | 'author'>): string | null {
  if (m.direction === 'in' || !Object.hasOwn(messageSourceLabels, m.source)) return null;
  const author = m.author?.trim();
  // The campaign by its name, the person by theirs; the chatbot is the chatbot.
  if (author && m.source === 'campaign') return `Campanha: ${author}`;
  if (author && m.source === 'manual') return author;
  return messageSourceLabels[m.source as MessageSource];
}

export interface MessageOptionView {
  /** '1.' on a numbered menu; null for a WhatsApp button. */
  marker: string | null;
  text: string;
  type: ConversationButton['type'];
  /** Where a link or phone button leads (the menu writes it after the text): null for a quick reply. */
  detail: string | null;
}

export interface MessageOptionsView {
  /** The list's name for screen readers, and the caption above it. */
  label: string;
  items: MessageOptionView[];
}

/**
 * The buttons under an outbound message, as the contact got them: a numbered menu ('1. Preços',
 * '2. Site: https://…', answered with the number) or WhatsApp buttons. Null without buttons.
 */
export function messageOptionsView(m: Pick<ConversationMessage, 'direction' | 'buttons'>): MessageOptionsView | null {
  const buttons = m.direction === 'out' ? m.buttons : undefined;
  if (!buttons?.options.length) return null;
  return {
    label: buttons.numbered ? 'Menu enviado (o cliente responde com o número)' : 'Botões enviados',
    items: buttons.options.map((b, i) => ({
      marker: buttons.numbered ? `${i + 1}.` : null,
      text: b.text,
      type: b.type,
      detail: b.type === 'quick_reply' ? null : b.type === 'phone' ? formatPhone(b.value) : b.value,
    })),
  };
}

/** Case, accents and punctuation aside (a button's title typed back). */
const sameWords = (a: string, b: string) => normalizeForMatch(a) === normalizeForMatch(b);

export interface MessageTextView {
  /** The bubble's text. */
  text: string;
  /** A small line under it ('escolheu: …'); null when the text says it all. */
  caption: string | null;
}

/**
 * What a bubble says. An answer to a numbered menu reads '2 — Falar com atendente' (the number the
 * contact sent and the option it chose); another answer to buttons keeps what the contact sent,
 * with 'escolheu: …' when the words differ from the option, or 'Botão escolhido' when they are the
 * option (a WhatsApp button's title).
 */
export function messageTextView(m: Pick<ConversationMessage, 'direction' | 'text' | 'choice'>): MessageTextView {
  const choice = m.direction === 'in' ? m.choice : undefined;
  if (!choice?.option) return { text: m.text, caption: null };
  if (choice.number) return { text: `${choice.number} — ${choice.option}`, caption: null };
  return { text: m.text, caption: sameWords(m.text, choice.option) ? 'Botão escolhido' : `escolheu: ${choice.option}` };
}

/** A bubble's time: 'HH:MM' today, else 'dd/mm/aaaa HH:MM'. */
export function messageTimeText(createdAt: string, now: number): string {
  const d = new Date(createdAt);
  if (Number.isNaN(d.getTime())) return '';
  return sameDay(d, new Date(now)) ? hhmm(d) : formatDateTime(d);
}

const PREVIEW_MAX = 80;

const graphemes = new Intl.Segmenter('pt-BR', { granularity: 'grapheme' });

/** `text` cut to `max` code units at most with '…', never inside an emoji (a pair, a 👍🏽, a family 👨‍👩‍👧). */
function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    if (kept.length + segment.length > max - 1) break;
    kept += segment;
  }
  return `${kept.trimEnd()}…`;
}

/**
 * The list item's last message on one line: 'Chatbot: ' for the bot's reply, 'Nota interna: ' for the
 * team's note, 'Você: ' for one's own answer (or an outbound message of unknown author), the first
 * name of the teammate who answered ('Ana: '), 'Imagem' for a message without text.
 */
export function previewText(
  c: Pick<Conversation, 'lastMessageText' | 'lastDirection' | 'lastSource' | 'lastAuthorId' | 'lastAuthorName'>,
  selfId?: string,
): string {
  const flat = c.lastMessageText.replace(/\s+/g, ' ').trim() || 'Imagem';
  const text = truncateText(flat, PREVIEW_MAX);
  if (c.lastDirection !== 'out') return text;
  if (c.lastSource === 'bot' || c.lastSource === 'note') return `${messageSourceLabels[c.lastSource]}: ${text}`;
  const teammate = c.lastAuthorId && c.lastAuthorId !== selfId ? c.lastAuthorName?.trim().split(/\s+/)[0] : '';
  return `${teammate || 'Você'}: ${text}`;
}

/** '3', or '99+' past 99. */
export function unreadText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * Pages of one conversation as one list, oldest first, each message once. A message in a later
 * argument replaces the same id in an earlier one (the latest page has the freshest delivery state).
 */
export function mergeMessages(...pages: ReadonlyArray<readonly ConversationMessage[]>): ConversationMessage[] {
  const byId = new Map<string, ConversationMessage>();
  for (const page of pages) for (const m of page) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/** The `before` of the next older page: the oldest message's time; undefined without messages. */
export function olderCursor(messages: readonly ConversationMessage[]): string | undefined {
  return messages[0]?.createdAt;
}

/** Whether a page that came back with `count` messages may have older ones before it. */
export function mayHaveOlder(count: number, pageSize: number = MESSAGES_PAGE_SIZE): boolean {
  return count >= pageSize;
}

/**
 * The list with `conversation` in place of the one of its thread (same phone and number; the same
 * contact's conversation on another number stays). The list is otherwise unchanged.
 */
export function replaceConversation(list: readonly Conversation[], conversation: Conversation): Conversation[] {
  return list.map((c) => (sameThread(c, conversation) ? conversation : c));
}
