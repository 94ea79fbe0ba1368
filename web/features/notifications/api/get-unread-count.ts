import { queryOptions, useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_POLL_MS, type UnreadCount } from '#contract/notifications';
import { api } from '#web/lib/api';
import { unreadCountQueryKey } from '#web/lib/query-keys';

export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: unreadCountQueryKey,
    queryFn: ({ signal }) => api.get<UnreadCount>('/api/notifications/unread-count', { signal }),
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });

/** The bell's badge: how many notifications are unread, polled every 30 s. */
export function useUnreadCount() {
  return useQuery(unreadCountQueryOptions());
}
