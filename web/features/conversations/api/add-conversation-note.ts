import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ConversationMessage, conversationNoteResponse } from '#contract/conversations';
import { api } from '#web/lib/api';
import { conversationQueryKey, conversationsQueryKey } from '#web/lib/query-keys';
import { conversationPath, mergeMessages, sameThread, type Thread } from '../conversation-view';
import type { ConversationDetail } from './get-conversation';

export type ConversationNoteResponse = z.infer<typeof conversationNoteResponse>;

/**
 * Adds an internal note to the thread: the team sees it in the conversation, the contact never gets
 * it; each member its `@Nome` names is told. 4xx carry a pt-BR `message` (empty, too long).
 */
export function addConversationNote(thread: Thread, text: string): Promise<ConversationNoteResponse> {
  return api.post<ConversationNoteResponse>(conversationPath(thread, '/notes'), { text });
}

/**
 * The note joins the open conversation's newest page at once (that thread's cached copies only:
 * the contact's conversation on another number is left alone); then everything refetches.
 */
export function applyNote(queryClient: QueryClient, thread: Thread, note: ConversationMessage): Promise<void> {
  queryClient.setQueriesData<ConversationDetail>({ queryKey: conversationQueryKey(thread.phone) }, (old) =>
    old && sameThread(old.conversation, thread) ? { ...old, messages: mergeMessages(old.messages, [note]) } : undefined,
  );
  return queryClient.invalidateQueries({ queryKey: conversationsQueryKey });
}

export function useAddConversationNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ thread, text }: { thread: Thread; text: string }) => addConversationNote(thread, text),
    onSuccess: (response, { thread }) => (response?.note ? applyNote(queryClient, thread, response.note) : undefined),
  });
}
