import { QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { getOrNull } from './api';

/** Turns a query key such as ['/api/campaigns'] or ['/api/groups', id] into its path. */
export function keyPath(queryKey: QueryKey): string {
  return queryKey.map(String).join('/');
}

/** Default query function: GET the key path; 401 gives null (SPEC §7). */
export function keyPathQueryFn<T>(): QueryFunction<T | null> {
  return ({ queryKey, signal }) => getOrNull<T>(keyPath(queryKey), { signal });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: keyPathQueryFn<unknown>(),
        retry: false,
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
