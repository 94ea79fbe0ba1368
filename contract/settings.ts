import './zod-locale';
import { z } from 'zod';
import { emailField, nameField, optionalWhatsappNumberField, passwordField } from './auth';
import { text } from './text';

/** pt-BR texts of the settings screens and their API (SPEC §5, §8). */
export const settingsMsg = {
  saved: 'Configurações salvas com sucesso.',
  saveError: 'Erro ao salvar configurações. Tente novamente.',
  profileSaved: 'Perfil atualizado com sucesso.',
  passwordChanged: 'Senha alterada com sucesso. As outras sessões foram encerradas.',
  passwordErrorTitle: 'Erro ao alterar senha',
  currentPasswordRequired: 'Informe a senha atual',
  currentPasswordWrong: 'Senha atual incorreta.',
  passwordMismatch: 'As senhas não coincidem',
  passwordSame: 'A nova senha deve ser diferente da atual',
  companyMax: 'Empresa deve ter no máximo 100 caracteres',
  messageDelayRange: 'O intervalo entre mensagens deve ser de 1 a 60 segundos',
  dailyLimitMin: 'O limite diário deve ser de pelo menos 1 mensagem',
  dailyLimitMax: 'O limite diário deve ser de no máximo 100.000 mensagens',
  timeFormat: 'Horário inválido. Use o formato HH:MM',
  businessOrder: 'O início do expediente deve ser anterior ao fim',
  channelInvalid: 'Canal inválido. Use WhatsApp pessoal ou API oficial',
  booleanInvalid: 'Valor inválido: use ativado ou desativado',
} as const;

const bool = () => z.boolean({ error: settingsMsg.booleanInvalid });

export const profileSchema = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  company: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileInput = z.object({
  name: nameField,
  email: emailField,
  /** The account's WhatsApp number (the one given at sign-up). */
  phone: optionalWhatsappNumberField,
  company: text({ error: settingsMsg.companyMax }).trim().max(100, settingsMsg.companyMax).default(''),
});
export type UpdateProfileInput = z.input<typeof updateProfileInput>;

export const changePasswordInput = z
  .object({
    currentPassword: text({ error: settingsMsg.currentPasswordRequired }).min(1, settingsMsg.currentPasswordRequired),
    newPassword: passwordField,
    confirmPassword: text({ error: settingsMsg.passwordMismatch }),
  })
  .refine((o) => o.newPassword === o.confirmPassword, {
    message: settingsMsg.passwordMismatch,
    path: ['confirmPassword'],
  })
  .refine((o) => o.newPassword !== o.currentPassword, { message: settingsMsg.passwordSame, path: ['newPassword'] });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const notificationSettingsSchema = z.object({
  emailNotifications: bool(),
  pushNotifications: bool(),
  campaignUpdates: bool(),
  systemAlerts: bool(),
  marketingEmails: bool(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

const timeField = () =>
  text({ error: settingsMsg.timeFormat }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, settingsMsg.timeFormat);

export const whatsappChannels = ['personal', 'cloud'] as const;
export type WhatsappChannel = (typeof whatsappChannels)[number];

/** The fields of the account's WhatsApp sending settings (a number's own settings reuse them). */
export const whatsappSettingsFields = z.object({
  autoReconnect: bool(),
  messageDelay: z
    .number({ error: settingsMsg.messageDelayRange })
    .int(settingsMsg.messageDelayRange)
    .min(1, settingsMsg.messageDelayRange)
    .max(60, settingsMsg.messageDelayRange),
  dailyLimit: z
    .number({ error: settingsMsg.dailyLimitMin })
    .int(settingsMsg.dailyLimitMin)
    .min(1, settingsMsg.dailyLimitMin)
    .max(100_000, settingsMsg.dailyLimitMax),
  respectBusinessHours: bool(),
  businessStart: timeField(),
  businessEnd: timeField(),
  channel: z.enum(whatsappChannels, { error: settingsMsg.channelInvalid }),
});
const businessHoursInOrder = (o: { businessStart: string; businessEnd: string }) => o.businessStart < o.businessEnd;

export const whatsappSettingsSchema = whatsappSettingsFields.refine(businessHoursInOrder, {
  message: settingsMsg.businessOrder,
  path: ['businessEnd'],
});
export type WhatsappSettings = z.infer<typeof whatsappSettingsSchema>;

/**
 * `PUT /api/settings/whatsapp`: the six fields of SPEC §3, and our `channel` when the client knows
 * it. A client written from the spec sends no channel; the stored one is kept.
 */
export const updateWhatsappSettingsInput = whatsappSettingsFields
  .extend({ channel: whatsappSettingsFields.shape.channel.optional() })
  .refine(businessHoursInOrder, { message: settingsMsg.businessOrder, path: ['businessEnd'] });
export type UpdateWhatsappSettingsInput = z.infer<typeof updateWhatsappSettingsInput>;

export const settingsSavedResponse = z.object({ success: z.literal(true), message: z.string() });

/** One recent plan activation, without anything about who bought it (the demo's purchase notice). */
export const recentActivationsResponse = z.object({
  activations: z.array(z.object({ planLabel: z.string(), activatedAt: z.string() })),
});
export type RecentActivations = z.infer<typeof recentActivationsResponse>;

/** How far back the purchase notice looks (SPEC §9 shows real purchases only; none → no notice). */
export const RECENT_ACTIVATIONS_DAYS = 30;
