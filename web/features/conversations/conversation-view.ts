import type {
  Conversation,
  ConversationButton,
  ConversationMessage,
  ConversationMessageStatus,
  MessageSource,
} from '../../../contract/conversations';
import { messageSourceLabels } from '../../../contract/conversations';
import { formatPhone, phoneDigits } from '../../../contract/phone';
import { normalizeForMatch } from '../../../contract/text-match';
import { formatDateTime } from '../../lib/format';

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

/** Who wrote an outbound message ('Chatbot', 'Campanha', 'Atendente'); null for the contact's own. */
export function sourceLabel(m: Pick<ConversationMessage, 'direction' | 'source'>): string | null {
  if (m.direction === 'in' || !Object.hasOwn(messageSourceLabels, m.source)) return null;
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

/** The list item's last message on one line: 'Você: ' for outbound, 'Imagem' for a message without text. */
export function previewText(c: Pick<Conversation, 'lastMessageText' | 'lastDirection'>): string {
  const flat = c.lastMessageText.replace(/\s+/g, ' ').trim() || 'Imagem';
  const text = flat.length > PREVIEW_MAX ? `${flat.slice(0, PREVIEW_MAX - 1).trimEnd()}…` : flat;
  return c.lastDirection === 'out' ? `Você: ${text}` : text;
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

/** The list with `conversation` in place of the one with its phone (the list is otherwise unchanged). */
export function replaceConversation(list: readonly Conversation[], conversation: Conversation): Conversation[] {
  return list.map((c) => (c.phone === conversation.phone ? conversation : c));
}
