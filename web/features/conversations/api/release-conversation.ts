import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { applyConversation, type ConversationActionResponse } from './get-conversation';

/** Hands the conversation back to the chatbot. */
export function releaseConversation(phone: string): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(`/api/conversations/${encodeURIComponent(phone)}/release`);
}

export function useReleaseConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseConversation,
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
