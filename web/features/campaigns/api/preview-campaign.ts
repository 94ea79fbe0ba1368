import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CampaignTargetType, previewResponse } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignPreviewQueryKey } from '#web/lib/query-keys';

export type CampaignPreviewData = z.infer<typeof previewResponse>;
export type CampaignPreview = CampaignPreviewData['previews'][number];

/** The audience the form has chosen: the preview counts its contacts without a name. */
export interface PreviewAudience {
  targetType: CampaignTargetType;
  targetTags: string[];
}

/**
 * The message as three real recipients of the account would get it, and who of the audience has no
 * name (400 for an unknown variable).
 */
export function previewCampaign(
  message: string,
  audience: PreviewAudience,
  signal?: AbortSignal,
): Promise<CampaignPreviewData> {
  return api.post<CampaignPreviewData>('/api/campaigns/preview', { message, ...audience }, { signal });
}

export const campaignPreviewQueryOptions = (message: string, audience: PreviewAudience, enabled: boolean) =>
  queryOptions({
    queryKey: [...campaignPreviewQueryKey, { message, ...audience }],
    queryFn: ({ signal }) => previewCampaign(message, audience, signal),
    enabled,
    placeholderData: keepPreviousData,
    // The recipients behind it change as contacts do; a short cache is enough while typing.
    staleTime: 30_000,
    gcTime: 60_000,
  });

export function useCampaignPreview(message: string, audience: PreviewAudience, enabled: boolean) {
  return useQuery(campaignPreviewQueryOptions(message, audience, enabled));
}
