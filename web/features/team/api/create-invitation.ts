import type { z } from 'zod';
import type { CreateInvitationInput, createInvitationResponse } from '#contract/team';
import { api } from '#web/lib/api';
import { teamQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type CreateInvitationResponse = z.infer<typeof createInvitationResponse>;

/**
 * Invites someone by e-mail; the answer carries the one-time link too, to send another way. Inviting
 * an address with an open invitation again gives it a fresh link (the earlier one stops working).
 */
export function createInvitation(input: CreateInvitationInput): Promise<CreateInvitationResponse> {
  return api.post<CreateInvitationResponse>('/api/team/invitations', input);
}

export function useCreateInvitation() {
  return useInvalidatingMutation(createInvitation, [teamQueryKey]);
}
