import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '../../../../contract/settings';
import { api } from '../../../lib/api';

export const profileQueryKey = ['/api/settings/profile'] as const;

export function getProfile({ signal }: { signal?: AbortSignal } = {}): Promise<Profile> {
  return api.get<Profile>('/api/settings/profile', { signal });
}

export function useProfile() {
  return useQuery(queryOptions({ queryKey: profileQueryKey, queryFn: getProfile }));
}
