import { useMutation } from '@tanstack/react-query';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';

/** E-mails the signed-in account a new confirmation link (429 with when to retry, past the hourly limit). */
export function resendConfirmation(): Promise<OkResponse> {
  return api.post('/api/auth/resend-confirmation');
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
