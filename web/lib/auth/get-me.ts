import { queryOptions, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import type { User } from '#contract/auth';
import { AUTH_CACHE_MS } from '#contract/constants';
import { api, isApiError } from '../api';
import { meQueryKey } from '../query-keys';

/**
 * The signed-in user, or null. 401 (and an expired demo) mean logged out; any
 * other failure (network, 5xx) is logged and also treated as logged out (SPEC §4).
 */
export async function getMe({ signal }: { signal?: AbortSignal } = {}): Promise<User | null> {
  try {
    return await api.get<User>('/api/auth/me', { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (isApiError(error) && (error.status === 401 || error.code === 'DEMO_EXPIRED')) return null;
    console.error('Falha ao verificar a sessão', error);
    return null;
  }
}

export const meQueryOptions = () => queryOptions({ queryKey: meQueryKey, queryFn: getMe, staleTime: AUTH_CACHE_MS });

export function useUser(): { user: User | null; isLoading: boolean } {
  const query = useQuery(meQueryOptions());
  return { user: query.data ?? null, isLoading: query.isPending };
}

/**
 * For components rendered only inside the authenticated shell. Signing out empties the cache while
 * the page is still mounted: for the renders before the shell unmounts it, the page keeps the user it
 * last had. Only a component that never had a user is a mistake.
 */
export function useAuthenticatedUser(): User {
  const { user } = useUser();
  const last = useRef(user);
  if (user) last.current = user;
  if (!last.current) throw new Error('useAuthenticatedUser used outside the authenticated shell');
  return last.current;
}
