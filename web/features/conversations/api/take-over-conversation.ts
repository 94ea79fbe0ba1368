import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { applyConversation, type ConversationActionResponse } from './get-conversation';

/** Silences the chatbot with this contact on that number without answering yet. */
export function takeOverConversation(thread: Thread): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/takeover'));
}

export function useTakeOverConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeOverConversation,
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
