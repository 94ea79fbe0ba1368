import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LoginInput, loginResponse } from '#contract/auth';
import type { LoginTwoFactorInput, twoFactorRequiredResponse } from '#contract/two-factor';
import { paths } from '#web/lib/paths';
import { api } from '../api';

export type LoginResponse = z.infer<typeof loginResponse>;
export type TwoFactorRequiredResponse = z.infer<typeof twoFactorRequiredResponse>;
/** The password step's answer: signed in, or (two-factor sign-in on) a code still to give. */
export type LoginOutcome = LoginResponse | TwoFactorRequiredResponse;

/** True when the right password opened only the second step: no session yet, a code goes to /login/2fa. */
export function needsSecondFactor(outcome: LoginOutcome): outcome is TwoFactorRequiredResponse {
  return 'twoFactorRequired' in outcome && outcome.twoFactorRequired === true;
}

export function login(input: LoginInput): Promise<LoginOutcome> {
  return api.post<LoginOutcome>('/api/auth/login', input);
}

/** The second step: the authenticator app's code or a recovery code, for the sign-in the password opened. */
export function loginWithCode(input: LoginTwoFactorInput): Promise<LoginResponse> {
  return api.post<LoginResponse>('/api/auth/login/2fa', input);
}

/**
 * On a signed-in answer: invalidate every query, then a full redirect to the dashboard (SPEC §4), whose
 * first request caches the signed-in user. The user is not put in this page's cache first: the login
 * route would then navigate to the dashboard by itself and race the full redirect.
 */
function useFinishLogin() {
  const queryClient = useQueryClient();
  return async () => {
    // No refetch: the page is about to be replaced, a refetch would only be aborted.
    await queryClient.invalidateQueries({ refetchType: 'none' });
    window.location.assign(paths.dashboard);
  };
}

/** The password step. When it answers `twoFactorRequired`, nothing happens here: the form asks for the code. */
export function useLogin() {
  const finish = useFinishLogin();
  return useMutation({
    mutationFn: login,
    onSuccess: async (outcome) => {
      if (!needsSecondFactor(outcome)) await finish();
    },
  });
}

/** The code step: continues exactly as a sign-in without two-factor does. */
export function useLoginWithCode() {
  const finish = useFinishLogin();
  return useMutation({ mutationFn: loginWithCode, onSuccess: finish });
}
