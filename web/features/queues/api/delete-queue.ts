import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { conversationsQueryKey, queuesQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

/** DELETE /api/queues/{id}: its conversations stay, in no queue. */
export function deleteQueue(id: string): Promise<OkResponse> {
  return api.delete<OkResponse>(`/api/queues/${encodeURIComponent(id)}`);
}

/** Deletes a queue; the queues and the conversations (which named it) are refetched. */
export function useDeleteQueue() {
  return useInvalidatingMutation(deleteQueue, [queuesQueryKey, conversationsQueryKey]);
}
