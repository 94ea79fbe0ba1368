import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '#contract/settings';
import { api } from '#web/lib/api';
import { profileQueryKey } from '#web/lib/query-keys';

export function getProfile({ signal }: { signal?: AbortSignal } = {}): Promise<Profile> {
  return api.get<Profile>('/api/settings/profile', { signal });
}

export function useProfile() {
  return useQuery(queryOptions({ queryKey: profileQueryKey, queryFn: getProfile }));
}
