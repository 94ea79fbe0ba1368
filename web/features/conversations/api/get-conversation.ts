import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  Conversation,
  conversationActionResponse,
  conversationDetailResponse,
} from '../../../../contract/conversations';
import { api, isApiError } from '../../../lib/api';
import { conversationQueryKey, conversationsQueryKey } from '../../../lib/query-keys';
import { CONVERSATION_POLL_MS, MESSAGES_PAGE_SIZE } from '../conversation-view';
import { invalidateConversationLists, updateConversationInLists } from './get-conversations';

export type ConversationDetail = z.infer<typeof conversationDetailResponse>;
/** What send, takeover and release answer. */
export type ConversationActionResponse = z.infer<typeof conversationActionResponse>;

/** One page of a conversation, oldest first: the newest messages, or those before `before` (ISO). */
export function getConversationPage(
  phone: string,
  { before, limit = MESSAGES_PAGE_SIZE }: { before?: string; limit?: number } = {},
  signal?: AbortSignal,
): Promise<ConversationDetail> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before) params.set('before', before);
  return api.get<ConversationDetail>(`/api/conversations/${encodeURIComponent(phone)}?${params}`, { signal });
}

/**
 * The open conversation's newest page, polled every 3 s while the page is visible. Opening it marks
 * it read on the server, so the lists take the returned conversation and refetch when it was unread.
 */
export function useConversation(phone: string | null) {
  const queryClient = useQueryClient();
  return useQuery(
    queryOptions({
      queryKey: conversationQueryKey(phone ?? ''),
      queryFn: async ({ signal }) => {
        const detail = await getConversationPage(phone ?? '', {}, signal);
        if (updateConversationInLists(queryClient, detail.conversation)) void invalidateConversationLists(queryClient);
        return detail;
      },
      enabled: phone !== null,
      // Not while the browser tab is hidden, nor for a number without a conversation (404).
      refetchInterval: (query) =>
        isApiError(query.state.error) && query.state.error.status === 404 ? false : CONVERSATION_POLL_MS,
    }),
  );
}

/**
 * A conversation an action returned (send, takeover, release) replaces the cached one in the open
 * conversation and in the lists, so the handoff shows at once; then everything refetches.
 */
export function applyConversation(queryClient: QueryClient, conversation: Conversation | undefined): Promise<void> {
  if (conversation) {
    queryClient.setQueryData<ConversationDetail>(conversationQueryKey(conversation.phone), (old) =>
      old ? { ...old, conversation } : old,
    );
    updateConversationInLists(queryClient, conversation);
  }
  return queryClient.invalidateQueries({ queryKey: conversationsQueryKey });
}
