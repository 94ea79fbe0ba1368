import { z } from 'zod';
import { passwordField } from './auth';
import { text } from './text';

/**
 * Two-factor sign-in (TOTP, RFC 6238): a 6-digit code from an authenticator app, 30-second steps,
 * SHA-1 (what every authenticator app reads from an `otpauth://` link). A code is accepted one step
 * early or late, and never twice. Ten recovery codes, shown once, each good for one sign-in.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the second step of a sign-in waits for its code, and how many wrong codes it takes. */
export const LOGIN_CHALLENGE_MINUTES = 5;
export const LOGIN_CHALLENGE_ATTEMPTS = 5;

export const twoFactorMsg = {
  title: 'Verificação em duas etapas',
  description:
    'Além da senha, um código de 6 dígitos do aplicativo autenticador (Google Authenticator, Authy, 1Password…).',
  enabledBadge: 'Ativa',
  disabledBadge: 'Desativada',
  setup: 'Ativar verificação em duas etapas',
  setupScan:
    'Leia o QR code com o aplicativo autenticador, ou digite a chave abaixo, e informe o código que ele mostra.',
  secretLabel: 'Chave',
  codeLabel: 'Código do aplicativo',
  enable: 'Confirmar e ativar',
  enabled: 'Verificação em duas etapas ativada. Guarde os códigos de recuperação.',
  recoveryTitle: 'Códigos de recuperação',
  recoveryHint:
    'Cada código entra uma vez, se você perder o celular. Guarde-os em lugar seguro: eles não serão mostrados de novo.',
  disable: 'Desativar',
  disableTitle: 'Desativar a verificação em duas etapas',
  disableHint: 'Informe sua senha e um código do aplicativo (ou um código de recuperação).',
  disabled: 'Verificação em duas etapas desativada.',
  alreadyEnabled: 'A verificação em duas etapas já está ativa. Desative-a antes de configurar de novo.',
  notEnabled: 'A verificação em duas etapas não está ativa.',
  noSetup: 'Comece a configuração de novo: leia o QR code e informe o código.',
  invalidCode: 'Código inválido ou já usado. Confira o relógio do celular e digite o código atual.',
  wrongPassword: 'Senha incorreta.',
  requiredByAccount: 'Esta conta exige a verificação em duas etapas: ela não pode ser desativada.',
  setupRequired: 'Esta conta exige a verificação em duas etapas. Ative-a em Minha conta para continuar.',
  loginTitle: 'Verificação em duas etapas',
  loginHint: 'Digite o código de 6 dígitos do aplicativo autenticador, ou um código de recuperação.',
  loginSubmit: 'Verificar',
  loginRequired: 'Informe o código do aplicativo autenticador.',
  challengeExpired: 'O tempo para informar o código acabou, ou houve tentativas demais. Entre com sua senha de novo.',
  tooManyAttempts: 'Muitos códigos errados. Aguarde 15 minutos e tente novamente.',
  requireLabel: 'Exigir verificação em duas etapas de toda a equipe',
  requireHint: 'Quem ainda não tem será levado a ativá-la antes de qualquer outra coisa.',
  requireOn: 'A equipe agora precisa da verificação em duas etapas.',
  requireOff: 'A verificação em duas etapas deixou de ser exigida.',
  ownerNeedsItFirst: 'Ative a verificação em duas etapas na sua conta antes de exigi-la da equipe.',
} as const;

/** A code typed by a person: digits of the app, or a recovery code (`XXXX-XXXX`), spaces allowed. */
export const codeField = text({ error: twoFactorMsg.loginRequired })
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().min(6, twoFactorMsg.invalidCode).max(16, twoFactorMsg.invalidCode));

export const twoFactorSetupResponse = z.object({
  /** The shared secret, base32, for typing into the app. */
  secret: z.string(),
  /** The `otpauth://totp/…` link an authenticator app reads (the page shows it as a QR code). */
  otpauthUrl: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponse>;

export const twoFactorEnableInput = z.object({ code: codeField });
export const twoFactorEnableResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponse>;

export const twoFactorDisableInput = z.object({ password: passwordField, code: codeField });
export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableInput>;

export const loginTwoFactorInput = z.object({ code: codeField });
export type LoginTwoFactorInput = z.infer<typeof loginTwoFactorInput>;

/** `POST /api/auth/login` when the password was right and a second factor is needed: no session yet. */
export const twoFactorRequiredResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  twoFactorRequired: z.literal(true),
});

export const teamSettingsInput = z.object({ requireTwoFactor: z.boolean({ error: 'Informe sim ou não.' }) });
export type TeamSettingsInput = z.infer<typeof teamSettingsInput>;
export const teamSettingsResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  requireTwoFactor: z.boolean(),
});
