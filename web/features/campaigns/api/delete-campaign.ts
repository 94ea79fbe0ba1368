import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { campaignsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export function deleteCampaign(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(`/api/campaigns/${encodeURIComponent(id)}`);
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCampaign,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
