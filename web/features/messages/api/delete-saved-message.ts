import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { savedMessagesQueryKey } from '#web/lib/query-keys';

export function deleteSavedMessage(id: string): Promise<OkResponse> {
  return api.delete<OkResponse>(`/api/messages/${encodeURIComponent(id)}`);
}

export function useDeleteSavedMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSavedMessage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedMessagesQueryKey }),
  });
}
