import { api } from '#web/lib/api';
import { teamQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';
import type { UpdateMemberResponse } from './update-member';

/** Takes a member's second factor away (a lost phone); their sessions end at once. */
export function resetMemberTwoFactor(id: string): Promise<UpdateMemberResponse> {
  return api.post<UpdateMemberResponse>(`/api/team/${encodeURIComponent(id)}/reset-two-factor`);
}

export function useResetMemberTwoFactor() {
  return useInvalidatingMutation(resetMemberTwoFactor, [teamQueryKey]);
}
