import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { type ConversationActionResponse, useConversationAction } from './get-conversation';

/** Silences the chatbot with this contact on that number without answering yet. */
export function takeOverConversation(thread: Thread): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/takeover'));
}

export function useTakeOverConversation() {
  return useConversationAction(takeOverConversation);
}
