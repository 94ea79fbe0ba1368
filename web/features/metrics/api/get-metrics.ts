import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MetricsResponse } from '../../../../contract/metrics';
import { keyPathQueryFn } from '../../../lib/query-client';

/** GET /api/metrics: the account's figures of all time, with the trend badges and monthly growth. */
export type Metrics = MetricsResponse;

export const metricsQueryKey = ['/api/metrics'] as const;

/** Figures move as campaigns go out: a screen opened again after this long asks again. */
export const METRICS_STALE_MS = 30_000;

export const metricsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: metricsQueryKey, queryFn: keyPathQueryFn<Metrics>(), enabled, staleTime: METRICS_STALE_MS });

export function useMetrics(enabled = true) {
  return useQuery(metricsQueryOptions(enabled));
}
