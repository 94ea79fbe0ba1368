import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { previewResponse } from '../../../../contract/campaigns';
import { api } from '../../../lib/api';

export type CampaignPreview = z.infer<typeof previewResponse>['previews'][number];

/** The message as three real recipients of the account would get it (400 for an unknown variable). */
export function previewCampaign(message: string, signal?: AbortSignal): Promise<CampaignPreview[]> {
  return api
    .post<z.infer<typeof previewResponse>>('/api/campaigns/preview', { message }, { signal })
    .then((r) => r.previews);
}

export const campaignPreviewQueryOptions = (message: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['/api/campaigns/preview', { message }],
    queryFn: ({ signal }) => previewCampaign(message, signal),
    enabled,
    placeholderData: keepPreviousData,
    // The recipients behind it change as contacts do; a short cache is enough while typing.
    staleTime: 30_000,
    gcTime: 60_000,
  });

export function useCampaignPreview(message: string, enabled: boolean) {
  return useQuery(campaignPreviewQueryOptions(message, enabled));
}
