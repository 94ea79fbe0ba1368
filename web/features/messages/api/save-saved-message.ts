import type { SavedMessageInput, SavedMessageMutationResponse } from '#contract/saved-messages';
import { api } from '#web/lib/api';
import { savedMessagesQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function createSavedMessage(input: SavedMessageInput): Promise<SavedMessageMutationResponse> {
  return api.post<SavedMessageMutationResponse>('/api/messages', input);
}

export function updateSavedMessage(id: string, input: SavedMessageInput): Promise<SavedMessageMutationResponse> {
  return api.put<SavedMessageMutationResponse>(`/api/messages/${encodeURIComponent(id)}`, input);
}

/** Creates (no id) or replaces a saved message; the list is refetched. */
export function useSaveSavedMessage() {
  return useInvalidatingMutation(
    ({ id, input }: { id?: string; input: SavedMessageInput }) =>
      id ? updateSavedMessage(id, input) : createSavedMessage(input),
    [savedMessagesQueryKey],
  );
}
