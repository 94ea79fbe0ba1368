import type { z } from 'zod';
import type { adminJobRetryResponse } from '#contract/admin';
import { api } from '#web/lib/api';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';
import { adminJobsQueryKey } from './get-jobs';

export type AdminJobRetryResponse = z.infer<typeof adminJobRetryResponse>;

/** Puts a dead job back in the queue, its attempts reset. */
export function retryJob(id: string): Promise<AdminJobRetryResponse> {
  return api.post<AdminJobRetryResponse>(`/api/admin/jobs/${encodeURIComponent(id)}/retry`);
}

export function useRetryJob() {
  return useInvalidatingMutation(retryJob, [adminJobsQueryKey]);
}
