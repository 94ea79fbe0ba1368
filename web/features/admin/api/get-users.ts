import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '#contract/auth';
import { keyPathQueryFn } from '#web/lib/query-client';
import { adminUsersQueryKey } from '#web/lib/query-keys';

export const adminUsersQueryOptions = () =>
  queryOptions({ queryKey: adminUsersQueryKey, queryFn: keyPathQueryFn<User[]>() });

export function useAdminUsers() {
  return useQuery(adminUsersQueryOptions());
}
