import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS_MS } from '#contract/constants';
import type { OnlineCount } from '#contract/presence';
import { api } from '#web/lib/api';
import { onlineCountQueryKey } from '#web/lib/query-keys';

export const onlineCountQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: onlineCountQueryKey,
    queryFn: ({ signal }) => api.get<OnlineCount>('/api/users/online-count', { signal }),
    refetchInterval: POLL_INTERVALS_MS.onlineCount,
    enabled,
  });

/** 'Usuários Online' and 'Total Ativos' (SPEC §3), polled every 30 s (SPEC §9). */
export function useOnlineCount(enabled: boolean) {
  return useQuery(onlineCountQueryOptions(enabled));
}
