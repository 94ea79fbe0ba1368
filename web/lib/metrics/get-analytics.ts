import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Analytics, Period } from '#contract/metrics';
import { api } from '../api';
import { analyticsQueryKey } from '../query-keys';
import { periodSearch } from './period';
import { useFiguresPace } from './use-figures-freshness';

export type { Analytics };

/** GET /api/metrics/analytics?from&to: every day of the period, and the read rate by send hour and weekday. */
export function getAnalytics(period: Period, signal?: AbortSignal): Promise<Analytics> {
  return api.get<Analytics>(`/api/metrics/analytics?${periodSearch(period)}`, { signal });
}

export const analyticsQueryOptions = (period: Period, pace: () => number, enabled = true) =>
  queryOptions({
    queryKey: analyticsQueryKey(period),
    queryFn: ({ signal }) => getAnalytics(period, signal),
    enabled,
    // Refreshed at the figures' pace (figures-freshness.ts), like every other figure on screen.
    staleTime: pace,
    refetchInterval: pace,
    // Switching the period keeps the charts in place (marked as updating) instead of blanking them.
    placeholderData: keepPreviousData,
  });

export function useAnalytics(period: Period, enabled = true) {
  return useQuery(analyticsQueryOptions(period, useFiguresPace(), enabled));
}
