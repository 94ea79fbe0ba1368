import type { ConversationStatus } from '#contract/conversations';
import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { type ConversationActionResponse, useConversationAction } from './get-conversation';

/** Marks the conversation open, pending or resolved; the answer's `message` says which. */
export function setConversationStatus(thread: Thread, status: ConversationStatus): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/status'), { status });
}

export function useSetConversationStatus() {
  return useConversationAction(({ thread, status }: { thread: Thread; status: ConversationStatus }) =>
    setConversationStatus(thread, status),
  );
}
