import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordInput } from '#contract/password-reset';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';

/** Sets the new password with the e-mailed link's token; every session of the account ends. */
export function resetPassword(input: ResetPasswordInput): Promise<OkResponse> {
  return api.post('/api/auth/reset-password', input);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
