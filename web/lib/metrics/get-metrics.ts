import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MetricsResponse } from '#contract/metrics';
import { keyPathQueryFn } from '../query-client';
import { metricsQueryKey } from '../query-keys';
import { useFiguresPace } from './use-figures-freshness';

/** GET /api/metrics: the account's figures of all time, with the trend badges and monthly growth. */
export type Metrics = MetricsResponse;

/** What the dashboard's figure cards read of the metrics query. */
export type MetricsQuery = {
  data: Metrics | null | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

/**
 * Figures move as campaigns go out: refreshed, and fresh for, the figures' pace (`pace`: the
 * campaign cards' while a campaign is live, else every minute; figures-freshness.ts).
 */
export const metricsQueryOptions = (pace: () => number, enabled = true) =>
  queryOptions({
    queryKey: metricsQueryKey,
    queryFn: keyPathQueryFn<Metrics>(),
    enabled,
    staleTime: pace,
    refetchInterval: pace,
  });

export function useMetrics(enabled = true) {
  return useQuery(metricsQueryOptions(useFiguresPace(), enabled));
}
