import type { z } from 'zod';
import type { QueueInput, queueMutationResponse } from '#contract/queues';
import { api } from '#web/lib/api';
import { conversationsQueryKey, queuesQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type QueueMutationResponse = z.infer<typeof queueMutationResponse>;

const PATH = '/api/queues';

/** POST /api/queues: a new queue. */
export function createQueue(input: QueueInput): Promise<QueueMutationResponse> {
  return api.post<QueueMutationResponse>(PATH, input);
}

/** PUT /api/queues/{id}: replaces a queue. */
export function updateQueue(id: string, input: QueueInput): Promise<QueueMutationResponse> {
  return api.put<QueueMutationResponse>(`${PATH}/${encodeURIComponent(id)}`, input);
}

/**
 * Creates (no id) or replaces (with its id) a queue; the queues are refetched, and the
 * conversations too (they show their queue's name, and a number's new conversations join its queue).
 */
export function useSaveQueue() {
  return useInvalidatingMutation(
    ({ id, input }: { id?: string; input: QueueInput }) => (id ? updateQueue(id, input) : createQueue(input)),
    [queuesQueryKey, conversationsQueryKey],
  );
}
