import { useMutation } from '@tanstack/react-query';
import type { Credentials } from '../../../../contract/auth';
import { api } from '../../../lib/api';

export interface LandingSignupValues {
  name: string;
  email: string;
  whatsappNumber: string;
}

export interface LandingSignupResponse {
  success: true;
  message: string;
  credentials: Credentials;
  user: { email: string };
}

export function landingSignup(input: LandingSignupValues): Promise<LandingSignupResponse> {
  return api.post<LandingSignupResponse>('/api/auth/signup', input);
}

export function useLandingSignup() {
  return useMutation({ mutationFn: landingSignup });
}
