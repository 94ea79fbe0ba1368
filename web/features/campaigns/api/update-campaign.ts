import type { Campaign, UpdateCampaignBody } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

/** Only while the campaign is a draft or scheduled; otherwise the server answers 409. */
export function updateCampaign(id: string, body: UpdateCampaignBody): Promise<Campaign> {
  return api.put<Campaign>(`/api/campaigns/${encodeURIComponent(id)}`, body);
}

export function useUpdateCampaign() {
  return useInvalidatingMutation(
    ({ id, body }: { id: string; body: UpdateCampaignBody }) => updateCampaign(id, body),
    [campaignsQueryKey],
  );
}
