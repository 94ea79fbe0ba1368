import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Period, Report } from '../../../../contract/metrics';
import { api } from '../../../lib/api';
import { METRICS_STALE_MS } from '../../metrics/api/get-metrics';
import { periodSearch } from '../../metrics/period';

export type { Report };

/** GET /api/metrics/report?from&to: the Relatórios page for a period. */
export function getReport(period: Period, signal?: AbortSignal): Promise<Report> {
  return api.get<Report>(`/api/metrics/report?${periodSearch(period)}`, { signal });
}

export const reportQueryOptions = (period: Period, enabled = true) =>
  queryOptions({
    queryKey: ['/api/metrics/report', period.from, period.to] as const,
    queryFn: ({ signal }) => getReport(period, signal),
    enabled,
    staleTime: METRICS_STALE_MS,
    placeholderData: keepPreviousData,
  });

export function useReport(period: Period, enabled = true) {
  return useQuery(reportQueryOptions(period, enabled));
}
