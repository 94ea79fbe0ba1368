import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Period, Report } from '#contract/metrics';
import { api } from '#web/lib/api';
import { periodSearch } from '#web/lib/metrics/period';
import { useFiguresPace } from '#web/lib/metrics/use-figures-freshness';
import { reportQueryKey } from '#web/lib/query-keys';

export type { Report };

/** GET /api/metrics/report?from&to: the Relatórios page for a period. */
export function getReport(period: Period, signal?: AbortSignal): Promise<Report> {
  return api.get<Report>(`/api/metrics/report?${periodSearch(period)}`, { signal });
}

export const reportQueryOptions = (period: Period, pace: () => number, enabled = true) =>
  queryOptions({
    queryKey: reportQueryKey(period),
    queryFn: ({ signal }) => getReport(period, signal),
    enabled,
    // Refreshed at the figures' pace (figures-freshness.ts), like every other figure on screen.
    staleTime: pace,
    refetchInterval: pace,
    placeholderData: keepPreviousData,
  });

export function useReport(period: Period, enabled = true) {
  return useQuery(reportQueryOptions(period, useFiguresPace(), enabled));
}
