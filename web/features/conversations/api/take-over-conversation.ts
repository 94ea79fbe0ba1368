import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { applyConversation, type ConversationActionResponse } from './get-conversation';

/** Silences the chatbot with this contact without answering yet. */
export function takeOverConversation(phone: string): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(`/api/conversations/${encodeURIComponent(phone)}/takeover`);
}

export function useTakeOverConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeOverConversation,
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
