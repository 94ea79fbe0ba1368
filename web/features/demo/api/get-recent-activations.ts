import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecentActivations } from '#contract/settings';
import { api } from '#web/lib/api';
import { recentActivationsQueryKey } from '#web/lib/query-keys';

export function getRecentActivations({ signal }: { signal?: AbortSignal } = {}): Promise<RecentActivations> {
  return api.get<RecentActivations>('/api/plan-activations/recent', { signal });
}

export function useRecentActivations(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: recentActivationsQueryKey,
      queryFn: getRecentActivations,
      enabled,
      // New activations appear while a demo runs.
      staleTime: 5 * 60_000,
      refetchInterval: 5 * 60_000,
    }),
  );
}
