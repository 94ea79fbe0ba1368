import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CreateCampaignBody } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export function createCampaign(body: CreateCampaignBody): Promise<Campaign> {
  return api.post<Campaign>('/api/campaigns', body);
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
