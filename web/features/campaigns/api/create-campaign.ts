import type { Campaign, CreateCampaignBody } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function createCampaign(body: CreateCampaignBody): Promise<Campaign> {
  return api.post<Campaign>('/api/campaigns', body);
}

export function useCreateCampaign() {
  return useInvalidatingMutation(createCampaign, [campaignsQueryKey, metricsQueryKey]);
}
