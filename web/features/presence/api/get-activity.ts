import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityPage } from '#contract/activity';
import { api } from '#web/lib/api';
import { activityQueryKey } from '#web/lib/query-keys';

export const activityQueryOptions = (page: number, limit: number, enabled: boolean) =>
  queryOptions({
    queryKey: [...activityQueryKey, { page, limit }],
    queryFn: ({ signal }) =>
      api.get<ActivityPage>(`/api/activity?${new URLSearchParams({ page: String(page), limit: String(limit) })}`, {
        signal,
      }),
    // Each visit reads the log again; while another page loads, the current one stays on screen.
    staleTime: 0,
    placeholderData: keepPreviousData,
    enabled,
  });

/** One page of the activity log, newest first (the account's, or every account's for an administrator). */
export function useActivity(page: number, limit: number, enabled: boolean) {
  return useQuery(activityQueryOptions(page, limit, enabled));
}
