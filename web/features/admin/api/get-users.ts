import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../../contract/auth';
import { keyPathQueryFn } from '../../../lib/query-client';
import { adminUsersQueryKey } from '../../../lib/query-keys';

export const adminUsersQueryOptions = () =>
  queryOptions({ queryKey: adminUsersQueryKey, queryFn: keyPathQueryFn<User[]>() });

export function useAdminUsers() {
  return useQuery(adminUsersQueryOptions());
}
