import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS_MS } from '../../../../contract/constants';
import type { TodayMetrics } from '../../../../contract/metrics';
import { keyPathQueryFn } from '../../../lib/query-client';

export type { TodayMetrics };

export const todayMetricsQueryKey = ['/api/metrics/today'] as const;

/** GET /api/metrics/today: the header's messages sent today and today's delivery rate, polled. */
export const todayMetricsQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: todayMetricsQueryKey,
    queryFn: keyPathQueryFn<TodayMetrics>(),
    enabled,
    staleTime: POLL_INTERVALS_MS.todayFigures,
    refetchInterval: POLL_INTERVALS_MS.todayFigures,
  });

export function useTodayMetrics(enabled = true) {
  return useQuery(todayMetricsQueryOptions(enabled));
}
