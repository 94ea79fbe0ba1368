import { z } from 'zod';
import { text } from './text';

/**
 * 'Confirme seu email': a new account (registration or the landing page's signup) is e-mailed a link
 * `{PUBLIC_URL}/confirmar-email?token=…`; `POST /api/auth/confirm-email {token}` marks the address
 * confirmed. Administrators see which accounts confirmed before approving them.
 */

/** How long a confirmation link works. */
export const EMAIL_CONFIRMATION_HOURS = 48;

export const emailConfirmationMsg = {
  title: 'Confirmação de email',
  confirming: 'Confirmando seu email…',
  done: 'Email confirmado! Assim que o administrador liberar sua conta, você poderá entrar.',
  doneTitle: 'Email confirmado',
  /** An expired, used or unknown token. */
  invalidLink:
    'Este link de confirmação é inválido, expirou ou já foi usado. Se o seu email ainda não foi confirmado, fale com o suporte.',
  missingLink: 'O link de confirmação está incompleto. Abra o link do email novamente.',
  errorTitle: 'Não foi possível confirmar o email',
  goToLogin: 'Ir para o login',
  /** The administrators' list. */
  confirmed: 'Email confirmado',
  notConfirmed: 'Email não confirmado',
} as const;

export const confirmEmailInput = z.object({
  token: text({ error: emailConfirmationMsg.invalidLink })
    .min(1, emailConfirmationMsg.invalidLink)
    .max(200, emailConfirmationMsg.invalidLink),
});
export type ConfirmEmailInput = z.infer<typeof confirmEmailInput>;
