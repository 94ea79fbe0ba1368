import { useMutation } from '@tanstack/react-query';
import type { OkResponse } from '#contract/responses';
import type { AcceptInvitationInput } from '#contract/team';
import { api } from '#web/lib/api';

/** Creates the invited member's login (their own username and password) with the link's token, once. */
export function acceptInvitation(input: AcceptInvitationInput): Promise<OkResponse> {
  return api.post<OkResponse>('/api/auth/accept-invitation', input);
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
