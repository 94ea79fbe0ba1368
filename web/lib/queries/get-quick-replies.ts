import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QuickReply } from '#contract/quick-replies';
import { keyPathQueryFn } from '../query-client';
import { quickRepliesQueryKey } from '../query-keys';

/** The list changes only when someone keeps it: the composer reads it once a minute at most. */
export const QUICK_REPLIES_STALE_MS = 60_000;

export const quickRepliesQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: quickRepliesQueryKey,
    queryFn: keyPathQueryFn<{ quickReplies: QuickReply[] }>(),
    select: (data) => data?.quickReplies ?? [],
    staleTime: QUICK_REPLIES_STALE_MS,
    enabled,
  });

/** GET /api/quick-replies: every quick reply of the account, by shortcut (filtered on the client). */
export function useQuickReplies(enabled = true) {
  return useQuery(quickRepliesQueryOptions(enabled));
}
