import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { savedMessagesQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function deleteSavedMessage(id: string): Promise<OkResponse> {
  return api.delete<OkResponse>(`/api/messages/${encodeURIComponent(id)}`);
}

export function useDeleteSavedMessage() {
  return useInvalidatingMutation(deleteSavedMessage, [savedMessagesQueryKey]);
}
