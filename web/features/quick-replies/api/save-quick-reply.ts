import type { z } from 'zod';
import type { QuickReplyInput, quickReplyMutationResponse } from '#contract/quick-replies';
import { api } from '#web/lib/api';
import { quickRepliesQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type QuickReplyMutationResponse = z.infer<typeof quickReplyMutationResponse>;

const PATH = '/api/quick-replies';

/** POST /api/quick-replies: a new quick reply. */
export function createQuickReply(input: QuickReplyInput): Promise<QuickReplyMutationResponse> {
  return api.post<QuickReplyMutationResponse>(PATH, input);
}

/** PUT /api/quick-replies/{id}: replaces a quick reply. */
export function updateQuickReply(id: string, input: QuickReplyInput): Promise<QuickReplyMutationResponse> {
  return api.put<QuickReplyMutationResponse>(`${PATH}/${encodeURIComponent(id)}`, input);
}

/** Creates (no id) or replaces (with its id) a quick reply; the list is refetched. */
export function useSaveQuickReply() {
  return useInvalidatingMutation(
    ({ id, input }: { id?: string; input: QuickReplyInput }) =>
      id ? updateQuickReply(id, input) : createQuickReply(input),
    [quickRepliesQueryKey],
  );
}
