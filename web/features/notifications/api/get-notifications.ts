import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationList } from '#contract/notifications';
import { api } from '#web/lib/api';
import { notificationsQueryKey } from '#web/lib/query-keys';

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationsQueryKey,
    queryFn: ({ signal }) => api.get<NotificationList>('/api/notifications', { signal }),
    // Read afresh each time the panel opens.
    staleTime: 0,
  });

/** The panel's list: the newest notifications, with the unread count. */
export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
