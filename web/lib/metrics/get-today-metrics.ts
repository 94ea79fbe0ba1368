import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TodayMetrics } from '#contract/metrics';
import { keyPathQueryFn } from '../query-client';
import { todayMetricsQueryKey } from '../query-keys';
import { useFiguresPace } from './use-figures-freshness';

export type { TodayMetrics };
export { todayMetricsQueryKey };

/**
 * GET /api/metrics/today: the header's messages sent today and today's delivery rate, polled at
 * the figures' pace (`pace`: the campaign cards' while a campaign is live, else every minute).
 */
export const todayMetricsQueryOptions = (pace: () => number, enabled = true) =>
  queryOptions({
    queryKey: todayMetricsQueryKey,
    queryFn: keyPathQueryFn<TodayMetrics>(),
    enabled,
    staleTime: pace,
    refetchInterval: pace,
  });

export function useTodayMetrics(enabled = true) {
  return useQuery(todayMetricsQueryOptions(useFiguresPace(), enabled));
}
