import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { GroupInput, groupMutationResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { groupsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export type GroupMutationResponse = z.infer<typeof groupMutationResponse>;

export function createGroup(input: GroupInput): Promise<GroupMutationResponse> {
  return api.post<GroupMutationResponse>('/api/groups', input);
}

export function updateGroup(id: string, input: GroupInput): Promise<GroupMutationResponse> {
  return api.put<GroupMutationResponse>(`/api/groups/${encodeURIComponent(id)}`, input);
}

export function useSaveGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: GroupInput }) =>
      id ? updateGroup(id, input) : createGroup(input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
