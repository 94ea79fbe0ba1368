import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { okResponse } from '#contract/responses';
import type { TwoFactorDisableInput, TwoFactorEnableResponse, TwoFactorSetupResponse } from '#contract/two-factor';
import { api } from '#web/lib/api';
import { meQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

/** A new secret and its otpauth:// link; nothing changes until a first code confirms it. */
export function setUpTwoFactor(): Promise<TwoFactorSetupResponse> {
  return api.post<TwoFactorSetupResponse>('/api/auth/2fa/setup');
}

export function enableTwoFactor(input: { code: string }): Promise<TwoFactorEnableResponse> {
  return api.post<TwoFactorEnableResponse>('/api/auth/2fa/enable', input);
}

export function disableTwoFactor(input: TwoFactorDisableInput): Promise<z.infer<typeof okResponse>> {
  return api.post('/api/auth/2fa/disable', input);
}

export function useSetUpTwoFactor() {
  return useMutation({ mutationFn: setUpTwoFactor });
}

/**
 * Turning it on: the caller refreshes the signed-in user itself (`refreshMe`) once the recovery codes
 * were seen, since a login held to set it up leaves the setup page as soon as /me says it is on.
 */
export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}

export function useDisableTwoFactor() {
  return useInvalidatingMutation(disableTwoFactor, [meQueryKey]);
}
