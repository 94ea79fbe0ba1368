import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LandingSignupInput, landingSignupResponse } from '#contract/auth';
import { api } from '#web/lib/api';

export type LandingSignupResponse = z.infer<typeof landingSignupResponse>;

export function landingSignup(input: LandingSignupInput): Promise<LandingSignupResponse> {
  return api.post<LandingSignupResponse>('/api/auth/signup', input);
}

export function useLandingSignup() {
  return useMutation({ mutationFn: landingSignup });
}
