import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { invitationPreviewResponse } from '#contract/team';
import { api } from '#web/lib/api';
import { invitationQueryKey } from '#web/lib/query-keys';

export type InvitationPreview = z.infer<typeof invitationPreviewResponse>;

/** Who an invitation's link invites, to which account and as what; 404 when unknown, spent or expired. */
export function getInvitation(token: string, signal?: AbortSignal): Promise<InvitationPreview> {
  return api.get<InvitationPreview>(`/api/auth/invitation?${new URLSearchParams({ token })}`, { signal });
}

export const invitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: invitationQueryKey(token),
    queryFn: ({ signal }) => getInvitation(token, signal),
    enabled: token !== '',
  });

export function useInvitation(token: string) {
  return useQuery(invitationQueryOptions(token));
}
