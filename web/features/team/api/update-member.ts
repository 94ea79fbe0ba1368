import type { z } from 'zod';
import type { UpdateMemberInput, updateMemberResponse } from '#contract/team';
import { api } from '#web/lib/api';
import { teamQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type UpdateMemberResponse = z.infer<typeof updateMemberResponse>;

/** Changes a member's role or access; a deactivated member's sessions end at once. */
export function updateMember({ id, input }: { id: string; input: UpdateMemberInput }): Promise<UpdateMemberResponse> {
  return api.patch<UpdateMemberResponse>(`/api/team/${encodeURIComponent(id)}`, input);
}

export function useUpdateMember() {
  return useInvalidatingMutation(updateMember, [teamQueryKey]);
}
