import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamDirectory } from '#contract/team';
import { keyPathQueryFn } from '../query-client';
import { teamQueryKey } from '../query-keys';

/**
 * GET /api/team/directory (its key path). Under the team's key, so every change on Equipe (a role,
 * a member deactivated, an invitation accepted) refreshes it too.
 */
export const teamDirectoryQueryKey = [...teamQueryKey, 'directory'] as const;

/** Someone joins or leaves now and then: read again at most once a minute. */
export const TEAM_DIRECTORY_STALE_MS = 60_000;

export const teamDirectoryQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: teamDirectoryQueryKey,
    queryFn: keyPathQueryFn<TeamDirectory>(),
    select: (data) => data?.members ?? [],
    staleTime: TEAM_DIRECTORY_STALE_MS,
    enabled,
  });

/**
 * The account's active people by name, its owner first: whom a conversation can be given to.
 * Every team role reads it (an agent hands a conversation to a colleague).
 */
export function useTeamDirectory(enabled = true) {
  return useQuery(teamDirectoryQueryOptions(enabled));
}
