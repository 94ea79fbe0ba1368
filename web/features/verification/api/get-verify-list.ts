import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VerifyListResponse } from '#contract/verification';
import { api } from '#web/lib/api';
import { verifyListQueryKey } from '#web/lib/query-keys';

/** How often the screen asks for progress while a verification runs. */
export const VERIFY_POLL_MS = 2_000;

export const verifyListQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: verifyListQueryKey,
    queryFn: ({ signal }) => api.get<VerifyListResponse>('/api/users/verify-list', { signal }),
    enabled,
    refetchInterval: (query) => (query.state.data?.progress.status === 'running' ? VERIFY_POLL_MS : false),
  });

/** Starts (the first call is the trigger) and follows the number verification until it is done. */
export function useVerifyList(enabled: boolean) {
  return useQuery(verifyListQueryOptions(enabled));
}
