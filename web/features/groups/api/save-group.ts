import type { z } from 'zod';
import type { GroupInput, groupMutationResponse } from '#contract/contacts';
import { groupsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useSaveMutation } from '#web/lib/use-invalidating-mutation';

export type GroupMutationResponse = z.infer<typeof groupMutationResponse>;

export function useSaveGroup() {
  return useSaveMutation<GroupMutationResponse, GroupInput>('/api/groups', [groupsQueryKey, metricsQueryKey]);
}
