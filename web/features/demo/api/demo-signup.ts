import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DemoSignupInput, demoSignupResponse } from '#contract/auth';
import { api } from '#web/lib/api';

export type DemoSignupResponse = z.infer<typeof demoSignupResponse>;

export function demoSignup(input: DemoSignupInput): Promise<DemoSignupResponse> {
  return api.post<DemoSignupResponse>('/api/auth/demo-signup', input);
}

export function useDemoSignup() {
  return useMutation({ mutationFn: demoSignup });
}
