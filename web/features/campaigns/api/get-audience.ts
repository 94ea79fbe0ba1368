import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AudienceSummary, CampaignTargetType } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { audienceQueryKey } from '#web/lib/query-keys';

/** The audience a campaign form has chosen: its type, tags (contacts) and group names (groups). */
export interface AudienceSelection {
  targetType: CampaignTargetType;
  tags: string[];
  groups: string[];
}

/** How many would receive a campaign with this audience if it started now, and who would be skipped. */
export function getAudience(selection: AudienceSelection, signal?: AbortSignal): Promise<AudienceSummary> {
  const params = new URLSearchParams({ targetType: selection.targetType });
  if (selection.targetType === 'contacts') for (const t of selection.tags) params.append('tags', t);
  if (selection.targetType === 'groups') for (const g of selection.groups) params.append('groups', g);
  return api.get<AudienceSummary>(`/api/campaigns/audience?${params}`, { signal });
}

export const audienceQueryOptions = (selection: AudienceSelection, enabled: boolean) =>
  queryOptions({
    queryKey: [...audienceQueryKey, selection],
    queryFn: ({ signal }) => getAudience(selection, signal),
    enabled,
    placeholderData: keepPreviousData,
    // Contacts change elsewhere (an import, another tab): counted again when the dialog opens.
    staleTime: 0,
    gcTime: 60_000,
  });

export function useAudience(selection: AudienceSelection, enabled: boolean) {
  return useQuery(audienceQueryOptions(selection, enabled));
}
