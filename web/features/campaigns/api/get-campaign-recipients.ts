import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CAMPAIGN_PROGRESS_POLL_MS, type RecipientStatus, type RecipientsPage } from '#contract/campaigns';
import { api } from '#web/lib/api';
import { campaignsQueryKey } from '#web/lib/query-keys';

export const RECIPIENTS_PAGE_SIZE = 50;

export interface RecipientsFilter {
  status: RecipientStatus | '';
  page: number;
}

export function getCampaignRecipients(
  id: string,
  { status, page }: RecipientsFilter,
  signal?: AbortSignal,
): Promise<RecipientsPage> {
  const params = new URLSearchParams({ page: String(page), limit: String(RECIPIENTS_PAGE_SIZE) });
  if (status) params.set('status', status);
  return api.get<RecipientsPage>(`/api/campaigns/${encodeURIComponent(id)}/recipients?${params}`, { signal });
}

/** Under the campaigns prefix, so every campaign mutation refreshes it too; polls while the campaign runs. */
export const campaignRecipientsQueryOptions = (id: string, filter: RecipientsFilter, live: boolean, enabled = true) =>
  queryOptions({
    queryKey: [...campaignsQueryKey, id, 'recipients', filter],
    queryFn: ({ signal }) => getCampaignRecipients(id, filter, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live ? CAMPAIGN_PROGRESS_POLL_MS : false,
    enabled,
  });

export function useCampaignRecipients(id: string, filter: RecipientsFilter, live: boolean, enabled = true) {
  return useQuery(campaignRecipientsQueryOptions(id, filter, live, enabled));
}
