import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordInput } from '#contract/password-reset';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';

/** Asks for a password-reset link; the answer is the same whether or not the address has an account. */
export function forgotPassword(input: ForgotPasswordInput): Promise<OkResponse> {
  return api.post('/api/auth/forgot-password', input);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
