import { queryOptions, useQuery } from '@tanstack/react-query';
import { CAMPAIGN_PROGRESS_POLL_MS, type CampaignNumbers } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey } from '#web/lib/query-keys';

export function getCampaignNumbers(id: string, signal?: AbortSignal): Promise<CampaignNumbers> {
  return api.get<CampaignNumbers>(`/api/campaigns/${encodeURIComponent(id)}/numbers`, { signal });
}

/** Under the campaigns prefix, so every campaign mutation refreshes it too; polls while the campaign runs. */
export const campaignNumbersQueryOptions = (id: string, live: boolean, enabled = true) =>
  queryOptions({
    queryKey: [...campaignsQueryKey, id, 'numbers'],
    queryFn: ({ signal }) => getCampaignNumbers(id, signal),
    refetchInterval: live ? CAMPAIGN_PROGRESS_POLL_MS : false,
    enabled,
  });

/** GET /api/campaigns/{id}/numbers: progress and delivery per number that sends the campaign. */
export function useCampaignNumbers(id: string, live: boolean, enabled = true) {
  return useQuery(campaignNumbersQueryOptions(id, live, enabled));
}
