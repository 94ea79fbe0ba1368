import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../../contract/auth';
import { keyPathQueryFn } from '../../../lib/query-client';

export const adminUsersQueryKey = ['/api/admin/users'] as const;

export const adminUsersQueryOptions = () =>
  queryOptions({ queryKey: adminUsersQueryKey, queryFn: keyPathQueryFn<User[]>() });

export function useAdminUsers() {
  return useQuery(adminUsersQueryOptions());
}
