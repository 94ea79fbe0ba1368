import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Campaign } from '../../../../contract/campaigns';
import { keyPathQueryFn } from '../../../lib/query-client';

export type { Campaign };

export const campaignsQueryKey = ['/api/campaigns'] as const;

export const campaignsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: campaignsQueryKey, queryFn: keyPathQueryFn<Campaign[]>(), enabled });

export function useCampaigns(enabled = true) {
  return useQuery(campaignsQueryOptions(enabled));
}

/** Newest first. */
export function recentCampaigns(campaigns: readonly Campaign[], count: number): Campaign[] {
  return [...campaigns].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, count);
}

/** Delivered over sent, as a percentage; 0 when nothing was sent. */
export function deliveryRate(c: Pick<Campaign, 'messagesSent' | 'messagesDelivered'>): number {
  return c.messagesSent > 0 ? (c.messagesDelivered / c.messagesSent) * 100 : 0;
}
