import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { teamQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

/** Cancels an invitation not yet accepted: its link stops working. */
export function cancelInvitation(id: string): Promise<OkResponse> {
  return api.delete<OkResponse>(`/api/team/invitations/${encodeURIComponent(id)}`);
}

export function useCancelInvitation() {
  return useInvalidatingMutation(cancelInvitation, [teamQueryKey]);
}
