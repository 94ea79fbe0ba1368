import { useMutation } from '@tanstack/react-query';
import type { ConfirmEmailInput } from '#contract/email-confirmation';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';

/** Confirms a new account's e-mail address with the e-mailed link's token. */
export function confirmEmail(input: ConfirmEmailInput): Promise<OkResponse> {
  return api.post('/api/auth/confirm-email', input);
}

export function useConfirmEmail() {
  return useMutation({ mutationFn: confirmEmail });
}
