import { z } from 'zod';
import { pluralForm } from './plural';
import { text } from './text';

/**
 * 'Confirme seu email': a new account (registration or the landing page's signup) is e-mailed a link
 * `{PUBLIC_URL}/confirmar-email?token=…`; `POST /api/auth/confirm-email {token}` marks the address
 * confirmed. Administrators see which accounts confirmed before approving them.
 */

/** How long a confirmation link works. */
export const EMAIL_CONFIRMATION_HOURS = 48;
/**
 * Confirmation e-mails one account may be sent in an hour, the registration's included: 'Reenviar
 * e-mail de confirmação' (`POST /api/auth/resend-confirmation`, signed in) answers 429 past this,
 * saying when to try again. Earlier links keep working.
 */
export const EMAIL_CONFIRMATION_PER_HOUR = 3;

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
  /** The signed-in account that has not confirmed its address ('Aguardando Aprovação' notice). */
  pendingNotice: (email: string) => `Confirme seu email: enviamos um link de confirmação para ${email}.`,
  resendButton: 'Reenviar e-mail de confirmação',
  resending: 'Reenviando...',
  resentTitle: 'Email reenviado',
  resent: (email: string) =>
    `Enviamos um novo link de confirmação para ${email}. Confira a caixa de entrada e a pasta de spam.`,
  resendErrorTitle: 'Erro ao reenviar o email',
  alreadyConfirmed: 'Seu email já está confirmado.',
  resendLimited: (minutes: number) =>
    `Você já recebeu ${EMAIL_CONFIRMATION_PER_HOUR} emails de confirmação na última hora. Tente novamente em ${minutes} ${pluralForm(minutes, 'minuto', 'minutos')}.`,
  /** Production without SMTP_URL. */
  resendUnavailable: 'O envio de emails não está disponível neste servidor. Fale com o suporte.',
} as const;

export const confirmEmailInput = z.object({
  token: text({ error: emailConfirmationMsg.invalidLink })
    .min(1, emailConfirmationMsg.invalidLink)
    .max(200, emailConfirmationMsg.invalidLink),
});
export type ConfirmEmailInput = z.infer<typeof confirmEmailInput>;
