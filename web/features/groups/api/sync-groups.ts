import type { z } from 'zod';
import type { groupSyncResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { groupsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type GroupSyncResponse = z.infer<typeof groupSyncResponse>;

export function syncGroups(): Promise<GroupSyncResponse> {
  return api.post<GroupSyncResponse>('/api/groups/sync');
}

export function useSyncGroups() {
  return useInvalidatingMutation(syncGroups, [groupsQueryKey]);
}
