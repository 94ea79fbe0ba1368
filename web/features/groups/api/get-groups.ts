import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Group } from '../../../../contract/contacts';
import { keyPathQueryFn } from '../../../lib/query-client';

export const groupsQueryKey = ['/api/groups'] as const;

export const groupsQueryOptions = () => queryOptions({ queryKey: groupsQueryKey, queryFn: keyPathQueryFn<Group[]>() });

export function useGroups() {
  return useQuery(groupsQueryOptions());
}
