import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { type ConversationActionResponse, useConversationAction } from './get-conversation';

/** Hands the conversation (the contact on that number) back to the chatbot. */
export function releaseConversation(thread: Thread): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/release'));
}

export function useReleaseConversation() {
  return useConversationAction(releaseConversation);
}
