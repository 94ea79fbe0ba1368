import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Metrics } from '../../../../contract/metrics';
import { keyPathQueryFn } from '../../../lib/query-client';

export type { Metrics };

export const metricsQueryKey = ['/api/metrics'] as const;

export const metricsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: metricsQueryKey, queryFn: keyPathQueryFn<Metrics>(), enabled });

export function useMetrics(enabled = true) {
  return useQuery(metricsQueryOptions(enabled));
}
