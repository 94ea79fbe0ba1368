import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS_MS } from '#contract/constants';
import type { ActiveUsers } from '#contract/presence';
import { api } from '#web/lib/api';
import { activeUsersQueryKey } from '#web/lib/query-keys';

export const activeUsersQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: activeUsersQueryKey,
    queryFn: ({ signal }) => api.get<ActiveUsers>('/api/users/active', { signal }),
    refetchInterval: POLL_INTERVALS_MS.activeUsers,
    enabled,
  });

/** Who was active in the last 24 hours and whether online now, polled every 10 s (SPEC §9). */
export function useActiveUsers(enabled: boolean) {
  return useQuery(activeUsersQueryOptions(enabled));
}
