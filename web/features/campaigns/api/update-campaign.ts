import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign, UpdateCampaignBody } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey } from '#web/lib/query-keys';

/** Only while the campaign is a draft or scheduled; otherwise the server answers 409. */
export function updateCampaign(id: string, body: UpdateCampaignBody): Promise<Campaign> {
  return api.put<Campaign>(`/api/campaigns/${encodeURIComponent(id)}`, body);
}

export function useUpdateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateCampaignBody }) => updateCampaign(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryKey }),
  });
}
