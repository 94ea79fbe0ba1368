import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { groupsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export function deleteGroup(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(`/api/groups/${encodeURIComponent(id)}`);
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
