import type { z } from 'zod';
import { settingsMsg } from '#contract/settings';
import { acceptInvitationInput } from '#contract/team';
import { text } from '#contract/text';

/**
 * The invitation page's form: the API's username and password (`acceptInvitationInput`, the token
 * comes from the link), the password typed twice as on 'Crie uma nova senha' (`resetPasswordForm`).
 */
export const acceptInvitationForm = acceptInvitationInput
  .pick({ username: true, password: true })
  .extend({ confirmPassword: text({ error: settingsMsg.passwordMismatch }) })
  .refine((o) => o.password === o.confirmPassword, {
    message: settingsMsg.passwordMismatch,
    path: ['confirmPassword'],
  });
export type AcceptInvitationForm = z.infer<typeof acceptInvitationForm>;
