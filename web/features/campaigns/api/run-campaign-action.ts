import type { z } from 'zod';
import type { campaignActionResponse } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type CampaignActionResponse = z.infer<typeof campaignActionResponse>;

/** The five state-changing calls share one shape: POST /api/campaigns/{id}/{action}, no body. */
export type CampaignCommand = 'send' | 'pause' | 'resume' | 'cancel' | 'duplicate';

/** 409 with a pt-BR message when the campaign's status does not allow the action. */
export function runCampaignAction(id: string, action: CampaignCommand): Promise<CampaignActionResponse> {
  return api.post<CampaignActionResponse>(`/api/campaigns/${encodeURIComponent(id)}/${action}`);
}

export function useCampaignAction() {
  return useInvalidatingMutation(
    ({ id, action }: { id: string; action: CampaignCommand }) => runCampaignAction(id, action),
    [campaignsQueryKey, metricsQueryKey],
  );
}
