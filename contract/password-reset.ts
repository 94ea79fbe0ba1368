import { z } from 'zod';
import { emailField, passwordField } from './auth';
import { settingsMsg } from './settings';
import { text } from './text';

/**
 * 'Esqueci minha senha': `POST /api/auth/forgot-password {email}` e-mails a link
 * `{PUBLIC_URL}/redefinir-senha?token=…`; `POST /api/auth/reset-password {token, password}` sets the
 * new password once. These names are fixed: clients rely on them.
 */

/** How long a link works. */
export const PASSWORD_RESET_MINUTES = 30;
/**
 * Links one account is sent in an hour at the request of one client address; further requests get
 * the same answer and no e-mail. Counted per requester, so a stranger asking for someone's address
 * does not use up the owner's own requests.
 */
export const PASSWORD_RESET_PER_HOUR = 3;
/** Links one account is sent in an hour whoever asks: how many e-mails strangers can make it receive. */
export const PASSWORD_RESET_PER_ACCOUNT_HOUR = 10;
/** Links one client address gets sent in an hour, whichever accounts it asks for. */
export const PASSWORD_RESET_PER_REQUESTER_HOUR = 10;

export const passwordResetMsg = {
  forgotLink: 'Esqueci minha senha',
  forgotTitle: 'Esqueceu sua senha?',
  forgotDescription: `Informe o email da sua conta. Enviaremos um link para criar uma nova senha, válido por ${PASSWORD_RESET_MINUTES} minutos.`,
  forgotSubmit: 'Enviar link',
  /** The one answer, whether or not an account has the address. */
  forgotSent:
    'Se houver uma conta com esse email, enviamos um link para redefinir a senha. Confira a caixa de entrada e a pasta de spam.',
  forgotSentTitle: 'Verifique seu email',
  forgotErrorTitle: 'Erro ao enviar o link',
  /** Production without SMTP_URL. */
  unavailable:
    'A recuperação de senha por email não está disponível neste servidor. Fale com o suporte para redefinir sua senha.',
  unavailableTitle: 'Recuperação por email indisponível',
  rateLimited: 'Muitas tentativas. Aguarde um minuto e tente novamente.',
  resetTitle: 'Crie uma nova senha',
  resetDescription: 'Escolha a nova senha da sua conta. Ao salvar, todas as sessões abertas são encerradas.',
  resetSubmit: 'Salvar nova senha',
  resetErrorTitle: 'Erro ao redefinir a senha',
  /** An expired, used or unknown token (using one link spends the account's others). */
  invalidLink: 'Este link de redefinição de senha é inválido, expirou ou já foi usado. Peça um novo link.',
  missingLink: 'O link de redefinição está incompleto. Abra o link do email novamente ou peça um novo.',
  resetDone: 'Senha redefinida. Entre com a nova senha.',
  requestNewLink: 'Pedir um novo link',
  backToLogin: 'Voltar para o login',
} as const;

export const forgotPasswordInput = z.object({ email: emailField });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const resetPasswordInput = z.object({
  token: text({ error: passwordResetMsg.invalidLink })
    .min(1, passwordResetMsg.invalidLink)
    .max(200, passwordResetMsg.invalidLink),
  password: passwordField,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** The page's form: the new password twice (the API takes it once). */
export const resetPasswordForm = z
  .object({ password: passwordField, confirmPassword: text({ error: settingsMsg.passwordMismatch }) })
  .refine((o) => o.password === o.confirmPassword, {
    message: settingsMsg.passwordMismatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;
