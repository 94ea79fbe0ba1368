import { api } from '#web/lib/api';
import { campaignsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function deleteCampaign(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(`/api/campaigns/${encodeURIComponent(id)}`);
}

export function useDeleteCampaign() {
  return useInvalidatingMutation(deleteCampaign, [campaignsQueryKey, metricsQueryKey]);
}
