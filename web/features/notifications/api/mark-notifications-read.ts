import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkReadInput, MarkReadResponse, UnreadCount } from '#contract/notifications';
import { api } from '#web/lib/api';
import { unreadCountQueryKey } from '#web/lib/query-keys';

/** POST /api/notifications/read: these ids, or every notification of the account without ids. */
export function markNotificationsRead(input: MarkReadInput = {}): Promise<MarkReadResponse> {
  return api.post<MarkReadResponse>('/api/notifications/read', input);
}

/** Marks notifications read; the badge takes the count the server answers at once. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkReadInput) => markNotificationsRead(input),
    onSuccess: (res) => queryClient.setQueryData<UnreadCount>(unreadCountQueryKey, { unread: res.unread }),
  });
}
