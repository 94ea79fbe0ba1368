import { queryOptions, useQuery } from '@tanstack/react-query';
import { CAMPAIGN_PROGRESS_POLL_MS, type Campaign } from '#contract/campaigns';
import { RECEIPTS_GRACE_MS } from '#contract/metrics';
import { keyPathQueryFn } from '#web/lib/query-client';
import { campaignsQueryKey } from '#web/lib/query-keys';
import { isRunningStatus } from '../status';

export type { Campaign };

function justFinished(c: Campaign, now: number): boolean {
  if (c.status !== 'completed' || !c.finishedAt) return false;
  const age = now - Date.parse(c.finishedAt);
  return age >= 0 && age < RECEIPTS_GRACE_MS;
}

/**
 * How often the list refreshes: every few seconds while some campaign runs (or has just finished and
 * its receipts are still coming in), else never.
 */
export function campaignsRefetchInterval(
  campaigns: readonly Campaign[] | null | undefined,
  now: number = Date.now(),
): number | false {
  const live = campaigns?.some((c) => isRunningStatus(c.status) || justFinished(c, now));
  return live ? CAMPAIGN_PROGRESS_POLL_MS : false;
}

export const campaignsQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: campaignsQueryKey,
    queryFn: keyPathQueryFn<Campaign[]>(),
    enabled,
    refetchInterval: (query) => campaignsRefetchInterval(query.state.data),
  });

export function useCampaigns(enabled = true) {
  return useQuery(campaignsQueryOptions(enabled));
}

/** Newest first. */
export function recentCampaigns(campaigns: readonly Campaign[], count: number): Campaign[] {
  return [...campaigns].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, count);
}
