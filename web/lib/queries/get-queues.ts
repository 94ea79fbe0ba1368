import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Queue } from '#contract/queues';
import { keyPathQueryFn } from '../query-client';
import { queuesQueryKey } from '../query-keys';

/** Queues change when someone keeps them; their open counts move with the conversations. */
export const QUEUES_STALE_MS = 30_000;

export const queuesQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: queuesQueryKey,
    queryFn: keyPathQueryFn<{ queues: Queue[] }>(),
    select: (data) => data?.queues ?? [],
    staleTime: QUEUES_STALE_MS,
    enabled,
  });

/**
 * GET /api/queues: the account's queues by name. Every team role reads it: Filas lists them, and
 * Conversas filters its list by one.
 */
export function useQueues(enabled = true) {
  return useQuery(queuesQueryOptions(enabled));
}
