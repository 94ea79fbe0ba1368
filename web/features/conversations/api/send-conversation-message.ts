import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { applyConversation, type ConversationActionResponse } from './get-conversation';

/**
 * Sends through the conversation's number and takes the conversation over (the bot goes silent).
 * 4xx/409 carry a pt-BR `message`: not connected, opted out, too long.
 */
export function sendConversationMessage(
  thread: Thread,
  text: string,
  mediaUrl?: string,
): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/messages'), {
    text,
    ...(mediaUrl ? { mediaUrl } : {}),
  });
}

export function useSendConversationMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ thread, text, mediaUrl }: { thread: Thread; text: string; mediaUrl?: string }) =>
      sendConversationMessage(thread, text, mediaUrl),
    // The handoff shows at once; the refetches bring the new bubble and the list's new order.
    onSuccess: (response) => applyConversation(queryClient, response?.conversation),
  });
}
