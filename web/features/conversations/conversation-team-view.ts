import {
  CONVERSATION_STATUS_LABELS,
  type Conversation,
  type ConversationMessage,
  type ConversationStatus,
  messageSourceLabels,
} from '#contract/conversations';
import type { Queue } from '#contract/queues';
import type { TeamDirectory } from '#contract/team';
import { QUEUE_PARAM } from '#web/lib/paths';

/*
 * The team's side of 'Conversas': the list's filters (who has a conversation, where it stands), the
 * assignee and status a row and the pane show, the pane's assign and status actions, and the
 * thread's internal notes.
 */

/** The list's filters, in the order of their tabs; 'all' is the default. */
export const conversationFilters = ['mine', 'unassigned', 'all', 'resolved'] as const;
export type ConversationFilter = (typeof conversationFilters)[number];
export const DEFAULT_CONVERSATION_FILTER: ConversationFilter = 'all';
export const CONVERSATION_FILTER_LABELS: Record<ConversationFilter, string> = {
  mine: 'Minhas',
  unassigned: 'Sem responsável',
  all: 'Todas',
  resolved: 'Resolvidas',
};
/** The URL's parameter for the filter (`?filter=mine`); absent for 'all'. */
export const FILTER_PARAM = 'filter';

/** What GET /api/conversations takes for a filter, besides search and number. */
export interface ConversationListParams {
  assignee?: 'me' | 'none';
  status?: ConversationStatus;
  /** Only the conversations of this queue (Filas). */
  queueId?: string;
}

const FILTER_PARAMS: Record<ConversationFilter, ConversationListParams> = {
  mine: { assignee: 'me' },
  unassigned: { assignee: 'none' },
  all: {},
  resolved: { status: 'resolved' },
};

/** The list query's parameters of a filter (a fresh object: the query key holds it). */
export function filterListParams(filter: ConversationFilter): ConversationListParams {
  return { ...FILTER_PARAMS[filter] };
}

/** `?filter=` from the URL; anything unknown (or nothing) is 'all'. */
export function parseFilterParam(value: string | null | undefined): ConversationFilter {
  return conversationFilters.find((f) => f === value) ?? DEFAULT_CONVERSATION_FILTER;
}

/** `params` with `filter` (the default leaves the URL clean); the other parameters stay. */
export function withFilterParam(params: URLSearchParams, filter: ConversationFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  if (filter === DEFAULT_CONVERSATION_FILTER) next.delete(FILTER_PARAM);
  else next.set(FILTER_PARAM, filter);
  return next;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `?queue=` from the URL: a queue's id, or '' for every queue (anything not an id is ignored). */
export function parseQueueParam(value: string | null | undefined): string {
  const id = value?.trim() ?? '';
  return UUID.test(id) ? id.toLowerCase() : '';
}

/** `params` with the queue filter ('' leaves the URL clean); the other parameters stay. */
export function withQueueParam(params: URLSearchParams, queueId: string): URLSearchParams {
  const next = new URLSearchParams(params);
  if (queueId) next.set(QUEUE_PARAM, queueId);
  else next.delete(QUEUE_PARAM);
  return next;
}

/**
 * The queue the list is filtered by: the URL's, unless the account's queues are known and it is
 * not one of them (deleted since the link was made). '' for every queue.
 */
export function activeQueueId(param: string, queues: readonly Pick<Queue, 'id'>[] | undefined): string {
  if (!param) return '';
  return !queues || queues.some((q) => q.id === param) ? param : '';
}

/** The list query's parameters: the tab's, and the queue's when one is chosen. */
export function conversationListParams(filter: ConversationFilter, queueId: string): ConversationListParams {
  return queueId ? { ...FILTER_PARAMS[filter], queueId } : filterListParams(filter);
}

/** The name of the queue a conversation is in, for its badge; null when it is in none. */
export function queueBadgeText(c: Pick<Conversation, 'queueId' | 'queueName'>): string | null {
  if (!c.queueId) return null;
  return c.queueName?.trim() || null;
}

/** What an empty list says under a filter; null for 'all' (the page's usual empty state). */
export function filterEmptyState(filter: ConversationFilter): { title: string; description: string } | null {
  switch (filter) {
    case 'mine':
      return {
        title: 'Nenhuma conversa com você',
        description: 'As conversas de que você é responsável aparecem aqui. Abra uma e use "Assumir".',
      };
    case 'unassigned':
      return {
        title: 'Nenhuma conversa sem responsável',
        description: 'Todas as conversas têm alguém da equipe cuidando delas.',
      };
    case 'resolved':
      return {
        title: 'Nenhuma conversa resolvida',
        description: 'As conversas que a equipe marcar como resolvidas aparecem aqui.',
      };
    case 'all':
      return null;
  }
}

/** Where a conversation stands; a conversation the server says nothing about is open. */
export function conversationStatusOf(c: Pick<Conversation, 'status'>): ConversationStatus {
  return c.status ?? 'open';
}

/** 'Com Ana' for a conversation someone has; null for nobody's. */
export function assigneeText(c: Pick<Conversation, 'assigneeId' | 'assigneeName'>): string | null {
  if (!c.assigneeId) return null;
  const name = c.assigneeName?.trim();
  return name ? `Com ${name}` : null;
}

export type StatusBadgeTone = 'blue' | 'green';

/** The badge of a pending or resolved conversation ('Pendente', 'Resolvida'); null for an open one. */
export function statusBadge(c: Pick<Conversation, 'status'>): { label: string; tone: StatusBadgeTone } | null {
  const status = conversationStatusOf(c);
  if (status === 'open') return null;
  return { label: CONVERSATION_STATUS_LABELS[status], tone: status === 'resolved' ? 'green' : 'blue' };
}

export interface StatusAction {
  status: ConversationStatus;
  label: string;
  /** The main action of the state (resolve, or reopen a resolved one); the other is secondary. */
  primary: boolean;
}

/**
 * The pane's status buttons: 'Resolver' while open or pending, 'Reabrir' once resolved; and the way
 * to the remaining state ('Marcar como pendente', or 'Marcar como aberta' for a pending one).
 */
export function statusActions(c: Pick<Conversation, 'status'>): StatusAction[] {
  switch (conversationStatusOf(c)) {
    case 'open':
      return [
        { status: 'resolved', label: 'Resolver', primary: true },
        { status: 'pending', label: 'Marcar como pendente', primary: false },
      ];
    case 'pending':
      return [
        { status: 'resolved', label: 'Resolver', primary: true },
        { status: 'open', label: 'Marcar como aberta', primary: false },
      ];
    case 'resolved':
      return [
        { status: 'open', label: 'Reabrir', primary: true },
        { status: 'pending', label: 'Marcar como pendente', primary: false },
      ];
  }
}

/** Whether the signed-in login (`meId`, `user.id`) has the conversation. */
export function isAssignedTo(c: Pick<Conversation, 'assigneeId'>, meId: string): boolean {
  return Boolean(c.assigneeId) && c.assigneeId === meId;
}

export interface AssigneeOption {
  /** A member's id; '' for nobody. */
  value: string;
  label: string;
}

/** The value of the assign control for nobody. */
export const NO_ASSIGNEE = '';

/**
 * The assign control's options: 'Sem responsável', then the account's people as the directory lists
 * them (the owner first), the caller marked '(você)'. The conversation's assignee stays an option
 * while the directory does not list them (not loaded yet, or deactivated since), so the control
 * still shows who has it.
 */
export function assigneeOptions(
  members: TeamDirectory['members'] | undefined,
  c: Pick<Conversation, 'assigneeId' | 'assigneeName'> | undefined,
  meId: string,
): AssigneeOption[] {
  const options: AssigneeOption[] = [{ value: NO_ASSIGNEE, label: 'Sem responsável' }];
  for (const m of members ?? []) options.push({ value: m.id, label: m.id === meId ? `${m.name} (você)` : m.name });
  const current = c?.assigneeId;
  if (current && !options.some((o) => o.value === current)) {
    options.push({ value: current, label: c?.assigneeName?.trim() || 'Membro da equipe' });
  }
  return options;
}

/** Whether a thread's message is the team's internal note (never sent to the contact). */
export function isNote(m: Pick<ConversationMessage, 'source'>): boolean {
  return m.source === 'note';
}

/** A note's caption: 'Nota interna', and who wrote it when the server names them. */
export function noteView(m: Pick<ConversationMessage, 'author'>): { label: string; author: string | null } {
  return { label: messageSourceLabels.note, author: m.author?.trim() || null };
}
