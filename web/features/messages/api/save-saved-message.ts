import type { SavedMessageInput, SavedMessageMutationResponse } from '#contract/saved-messages';
import { savedMessagesQueryKey } from '#web/lib/query-keys';
import { useSaveMutation } from '#web/lib/use-invalidating-mutation';

/** Creates (no id) or replaces a saved message; the list is refetched. */
export function useSaveSavedMessage() {
  return useSaveMutation<SavedMessageMutationResponse, SavedMessageInput>('/api/messages', [savedMessagesQueryKey]);
}
