import type { z } from 'zod';
import type { GroupInput, groupMutationResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { groupsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type GroupMutationResponse = z.infer<typeof groupMutationResponse>;

export function createGroup(input: GroupInput): Promise<GroupMutationResponse> {
  return api.post<GroupMutationResponse>('/api/groups', input);
}

export function updateGroup(id: string, input: GroupInput): Promise<GroupMutationResponse> {
  return api.put<GroupMutationResponse>(`/api/groups/${encodeURIComponent(id)}`, input);
}

export function useSaveGroup() {
  return useInvalidatingMutation(
    ({ id, input }: { id?: string; input: GroupInput }) => (id ? updateGroup(id, input) : createGroup(input)),
    [groupsQueryKey, metricsQueryKey],
  );
}
