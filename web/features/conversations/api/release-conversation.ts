import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { applyConversation, type ConversationActionResponse } from './get-conversation';

/** Hands the conversation (the contact on that number) back to the chatbot. */
export function releaseConversation(thread: Thread): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/release'));
}

export function useReleaseConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseConversation,
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
