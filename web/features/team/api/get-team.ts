import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamResponse } from '#contract/team';
import { keyPathQueryFn } from '#web/lib/query-client';
import { teamQueryKey } from '#web/lib/query-keys';

export const teamQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: teamQueryKey, queryFn: keyPathQueryFn<TeamResponse>(), enabled });

/** GET /api/team: the account's people (its owner first), the plan's room for them and the open invitations. */
export function useTeam(enabled = true) {
  return useQuery(teamQueryOptions(enabled));
}
