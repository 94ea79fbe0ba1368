import type { z } from 'zod';
import type { TeamSettingsInput, teamSettingsResponse } from '#contract/two-factor';
import { api } from '#web/lib/api';
import { teamQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type TeamSettingsResponse = z.infer<typeof teamSettingsResponse>;

/** The owner's settings of the team: whether every login must sign in with a second factor. */
export function updateTeamSettings(input: TeamSettingsInput): Promise<TeamSettingsResponse> {
  return api.put<TeamSettingsResponse>('/api/team/settings', input);
}

export function useUpdateTeamSettings() {
  return useInvalidatingMutation(updateTeamSettings, [teamQueryKey]);
}
