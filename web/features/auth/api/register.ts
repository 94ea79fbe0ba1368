import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { RegisterInput } from '#contract/auth';
import type { okResponse } from '#contract/responses';
import { api } from '#web/lib/api';

export function register(input: RegisterInput): Promise<z.infer<typeof okResponse>> {
  return api.post('/api/auth/register', input);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
