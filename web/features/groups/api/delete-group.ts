import { api } from '#web/lib/api';
import { groupsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function deleteGroup(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(`/api/groups/${encodeURIComponent(id)}`);
}

export function useDeleteGroup() {
  return useInvalidatingMutation(deleteGroup, [groupsQueryKey, metricsQueryKey]);
}
