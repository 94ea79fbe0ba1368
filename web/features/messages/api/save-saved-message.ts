import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedMessageInput, SavedMessageMutationResponse } from '#contract/saved-messages';
import { api } from '#web/lib/api';
import { savedMessagesQueryKey } from '#web/lib/query-keys';

export function createSavedMessage(input: SavedMessageInput): Promise<SavedMessageMutationResponse> {
  return api.post<SavedMessageMutationResponse>('/api/messages', input);
}

export function updateSavedMessage(id: string, input: SavedMessageInput): Promise<SavedMessageMutationResponse> {
  return api.put<SavedMessageMutationResponse>(`/api/messages/${encodeURIComponent(id)}`, input);
}

/** Creates (no id) or replaces a saved message; the list is refetched. */
export function useSaveSavedMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: SavedMessageInput }) =>
      id ? updateSavedMessage(id, input) : createSavedMessage(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedMessagesQueryKey }),
  });
}
