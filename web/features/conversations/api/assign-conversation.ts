import { api } from '#web/lib/api';
import { conversationPath, type Thread } from '../conversation-view';
import { type ConversationActionResponse, useConversationAction } from './get-conversation';

/**
 * Gives the conversation (the contact on that number) to a member of the team (the owner's id for
 * the owner), or to nobody (null). The answer's `message` names who has it now.
 */
export function assignConversation(thread: Thread, memberId: string | null): Promise<ConversationActionResponse> {
  return api.post<ConversationActionResponse>(conversationPath(thread, '/assign'), { memberId });
}

export function useAssignConversation() {
  return useConversationAction(({ thread, memberId }: { thread: Thread; memberId: string | null }) =>
    assignConversation(thread, memberId),
  );
}
