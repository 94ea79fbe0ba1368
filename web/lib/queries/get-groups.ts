import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Group } from '#contract/contacts';
import { keyPathQueryFn } from '../query-client';
import { groupsQueryKey } from '../query-keys';

export const groupsQueryOptions = () => queryOptions({ queryKey: groupsQueryKey, queryFn: keyPathQueryFn<Group[]>() });

export function useGroups() {
  return useQuery(groupsQueryOptions());
}
