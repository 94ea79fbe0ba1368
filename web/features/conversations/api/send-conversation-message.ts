import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { applyConversation, type ConversationActionResponse } from './get-conversation';

/**
 * Sends through the account's WhatsApp and takes the conversation over (the bot goes silent).
 * 4xx/409 carry a pt-BR `message`: not connected, opted out, too long.
 */
export function sendConversationMessage(phone: string, text: string): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(`/api/conversations/${encodeURIComponent(phone)}/messages`, { text });
}

export function useSendConversationMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ phone, text }: { phone: string; text: string }) => sendConversationMessage(phone, text),
    // The handoff shows at once; the refetches bring the new bubble and the list's new order.
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
