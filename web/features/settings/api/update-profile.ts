import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile, UpdateProfileInput } from '#contract/settings';
import { api } from '#web/lib/api';
import { meQueryKey, profileQueryKey } from '#web/lib/query-keys';

export function updateProfile(input: UpdateProfileInput): Promise<Profile> {
  return api.put<Profile>('/api/settings/profile', input);
}

/** Saves the profile; the header's name comes from the session user, so it is read again. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryKey, profile);
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
