import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '#contract/settings';
import { api } from '#web/lib/api';

export function changePassword(input: ChangePasswordInput): Promise<{ success: true; message: string }> {
  return api.post('/api/auth/change-password', input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
