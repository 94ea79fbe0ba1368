import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { campaignActionResponse } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export type CampaignActionResponse = z.infer<typeof campaignActionResponse>;

/** The five state-changing calls share one shape: POST /api/campaigns/{id}/{action}, no body. */
export type CampaignCommand = 'send' | 'pause' | 'resume' | 'cancel' | 'duplicate';

/** 409 with a pt-BR message when the campaign's status does not allow the action. */
export function runCampaignAction(id: string, action: CampaignCommand): Promise<CampaignActionResponse> {
  return api.post<CampaignActionResponse>(`/api/campaigns/${encodeURIComponent(id)}/${action}`);
}

export function useCampaignAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: CampaignCommand }) => runCampaignAction(id, action),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
