import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Conversation, conversationActionResponse, conversationDetailResponse } from '#contract/conversations';
import { api, isApiError } from '#web/lib/api';
import { conversationQueryKey, conversationsQueryKey } from '#web/lib/query-keys';
import {
  CONVERSATION_POLL_MS,
  conversationPath,
  MESSAGES_PAGE_SIZE,
  sameThread,
  type Thread,
} from '../conversation-view';
import { invalidateConversationLists, updateConversationInLists } from './get-conversations';

export type ConversationDetail = z.infer<typeof conversationDetailResponse>;
/** What send, takeover, release, assign and status answer. */
export type ConversationActionResponse = z.infer<typeof conversationActionResponse>;

/**
 * One page of a conversation, oldest first: the newest messages, or those before `before` (ISO).
 * Without the thread's number, the server answers the contact's latest conversation (and says which).
 */
export function getConversationPage(
  thread: Thread,
  { before, limit = MESSAGES_PAGE_SIZE }: { before?: string; limit?: number } = {},
  signal?: AbortSignal,
): Promise<ConversationDetail> {
  const query: Record<string, string> = { limit: String(limit) };
  if (before) query.before = before;
  return api.get<ConversationDetail>(conversationPath(thread, '', query), { signal });
}

/**
 * The newest page of `thread`. Opening it marks it read on the server, so the lists take the
 * returned conversation (and refetch when it was unread). Asked without a number, the answer is
 * cached under its number too, so the page that then names it in the URL shows it at once.
 */
export async function fetchConversation(
  queryClient: QueryClient,
  thread: Thread,
  signal?: AbortSignal,
): Promise<ConversationDetail> {
  const detail = await getConversationPage(thread, {}, signal);
  const { connectionId } = detail.conversation;
  if (!thread.connectionId && connectionId && detail.conversation.phone === thread.phone) {
    queryClient.setQueryData<ConversationDetail>(conversationQueryKey(thread.phone, connectionId), detail);
  }
  if (updateConversationInLists(queryClient, detail.conversation)) void invalidateConversationLists(queryClient);
  return detail;
}

/** The open conversation's newest page, polled every 3 s while the page is visible. */
export function useConversation(thread: Thread | null) {
  const queryClient = useQueryClient();
  const phone = thread?.phone ?? '';
  const connectionId = thread?.connectionId ?? null;
  return useQuery(
    queryOptions({
      queryKey: conversationQueryKey(phone, connectionId),
      queryFn: ({ signal }) => fetchConversation(queryClient, { phone, connectionId }, signal),
      enabled: thread !== null,
      // Not while the browser tab is hidden, nor for a number without a conversation (404).
      refetchInterval: (query) =>
        isApiError(query.state.error) && query.state.error.status === 404 ? false : CONVERSATION_POLL_MS,
    }),
  );
}

/**
 * A conversation an action returned (send, takeover, release) replaces the cached one in the open
 * conversation (cached under its number, or without one while the URL does not name it yet) and in
 * the lists, so the handoff shows at once; then everything refetches. The contact's conversation on
 * another number is left alone.
 */
export function applyConversation(queryClient: QueryClient, conversation: Conversation | undefined): Promise<void> {
  if (conversation) {
    // [..., phone] is the prefix of each of the contact's conversations; only this one's copies change.
    queryClient.setQueriesData<ConversationDetail>({ queryKey: conversationQueryKey(conversation.phone) }, (old) =>
      old && sameThread(old.conversation, conversation) ? { ...old, conversation } : undefined,
    );
    updateConversationInLists(queryClient, conversation);
  }
  return queryClient.invalidateQueries({ queryKey: conversationsQueryKey });
}

/**
 * A button's action on one conversation (take over, release, assign, status): its answer updates the
 * cached copies. `V`: what the action takes (the thread, or the thread and a choice).
 */
export function useConversationAction<V = Thread>(action: (variables: V) => Promise<ConversationActionResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
