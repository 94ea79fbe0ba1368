import { keepPreviousData, type QueryClient, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Conversation, conversationListResponse } from '#contract/conversations';
import { api } from '#web/lib/api';
import { conversationsQueryKey } from '#web/lib/query-keys';
import type { ConversationListParams } from '../conversation-team-view';
import { CONVERSATIONS_LIMIT, LIST_POLL_MS, replaceConversation, sameThread } from '../conversation-view';

export type ConversationListResponse = z.infer<typeof conversationListResponse>;

/**
 * The list's keys are ['/api/conversations', { search, limit, connectionId?, assignee?, status?, queueId? }]; a
 * conversation's are [..., phone] or [..., phone, connectionId].
 */
function isListKey(queryKey: QueryKey): boolean {
  return queryKey[0] === conversationsQueryKey[0] && typeof queryKey[1] === 'object' && queryKey[1] !== null;
}

/**
 * `connectionId`: only the conversations on that number (empty: every number's); `filter`: only
 * the caller's or nobody's (`assignee`), those in one state (`status`), or in one queue (`queueId`).
 */
export function getConversations(
  search: string,
  signal?: AbortSignal,
  connectionId = '',
  filter: ConversationListParams = {},
): Promise<ConversationListResponse> {
  const params = new URLSearchParams({ limit: String(CONVERSATIONS_LIMIT) });
  if (search) params.set('search', search);
  if (connectionId) params.set('connectionId', connectionId);
  if (filter.assignee) params.set('assignee', filter.assignee);
  if (filter.status) params.set('status', filter.status);
  if (filter.queueId) params.set('queueId', filter.queueId);
  return api.get<ConversationListResponse>(`/api/conversations?${params}`, { signal });
}

export const conversationsQueryOptions = (
  search: string,
  enabled = true,
  connectionId = '',
  filter: ConversationListParams = {},
) =>
  queryOptions({
    queryKey: [
      ...conversationsQueryKey,
      {
        search,
        limit: CONVERSATIONS_LIMIT,
        ...(connectionId ? { connectionId } : {}),
        ...(filter.assignee ? { assignee: filter.assignee } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.queueId ? { queueId: filter.queueId } : {}),
      },
    ],
    queryFn: ({ signal }) => getConversations(search, signal, connectionId, filter),
    enabled,
    placeholderData: keepPreviousData,
    // Not while the browser tab is hidden: refetchIntervalInBackground stays false.
    refetchInterval: LIST_POLL_MS,
  });

/**
 * Ordered by last activity, polled every 5 s while the page is open and visible; `connectionId`
 * filters by number, `filter` by assignee or state (the list's tabs) and by queue.
 */
export function useConversations(
  search: string,
  enabled = true,
  connectionId = '',
  filter: ConversationListParams = {},
) {
  return useQuery(conversationsQueryOptions(search, enabled, connectionId, filter));
}

/** Refreshes every cached list (not the open conversations). */
export function invalidateConversationLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => isListKey(query.queryKey) });
}

/** Whether two copies of a conversation differ in anything the list shows. */
function differs(a: Conversation, b: Conversation): boolean {
  return (Object.keys(b) as (keyof Conversation)[]).some((key) => a[key] !== b[key]);
}

/**
 * Puts a conversation the server just returned into every cached list that shows it (the same
 * contact on the same number; its conversation on another number is another entry), so its badges
 * change at once. Answers whether some list showed it differently (unread, handoff, last message),
 * i.e. whether the lists are worth refetching (the order may have changed too).
 */
export function updateConversationInLists(queryClient: QueryClient, conversation: Conversation): boolean {
  let changed = false;
  for (const [key, data] of queryClient.getQueriesData<ConversationListResponse>({
    predicate: (query) => isListKey(query.queryKey),
  })) {
    const current = data?.conversations.find((c) => sameThread(c, conversation));
    if (!data || !current || !differs(current, conversation)) continue;
    changed = true;
    queryClient.setQueryData<ConversationListResponse>(key, {
      conversations: replaceConversation(data.conversations, conversation),
    });
  }
  return changed;
}
