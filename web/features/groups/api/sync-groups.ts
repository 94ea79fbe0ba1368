import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { groupSyncResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { groupsQueryKey } from '#web/lib/query-keys';

export type GroupSyncResponse = z.infer<typeof groupSyncResponse>;

export function syncGroups(): Promise<GroupSyncResponse> {
  return api.post<GroupSyncResponse>('/api/groups/sync');
}

export function useSyncGroups() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncGroups,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsQueryKey }),
  });
}
