import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { quickRepliesQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

/** DELETE /api/quick-replies/{id}. */
export function deleteQuickReply(id: string): Promise<OkResponse> {
  return api.delete<OkResponse>(`/api/quick-replies/${encodeURIComponent(id)}`);
}

export function useDeleteQuickReply() {
  return useInvalidatingMutation(deleteQuickReply, [quickRepliesQueryKey]);
}
