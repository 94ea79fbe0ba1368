import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LoginInput, loginResponse } from '#contract/auth';
import { paths } from '#web/lib/paths';
import { api } from '../api';

export type LoginResponse = z.infer<typeof loginResponse>;

export function login(input: LoginInput): Promise<LoginResponse> {
  return api.post<LoginResponse>('/api/auth/login', input);
}

/**
 * On success: invalidate every query, then a full redirect to the dashboard (SPEC §4), whose first
 * request caches the signed-in user. The user is not put in this page's cache first: the login
 * route would then navigate to the dashboard by itself and race the full redirect.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async () => {
      // No refetch: the page is about to be replaced, a refetch would only be aborted.
      await queryClient.invalidateQueries({ refetchType: 'none' });
      window.location.assign(paths.dashboard);
    },
  });
}
