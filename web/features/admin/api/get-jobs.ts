import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminJobsResponse } from '#contract/admin';
import { keyPathQueryFn } from '#web/lib/query-client';

/** The background jobs' counts and latest dead jobs (GET /api/admin/jobs). */
export const adminJobsQueryKey = ['/api/admin/jobs'] as const;

export const adminJobsQueryOptions = () =>
  queryOptions({ queryKey: adminJobsQueryKey, queryFn: keyPathQueryFn<AdminJobsResponse>() });

export function useAdminJobs() {
  return useQuery(adminJobsQueryOptions());
}
