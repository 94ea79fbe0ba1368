import { z } from 'zod';
import type { ConnectionSettings } from './connections';
import { settingsMsg, type WhatsappSettings, whatsappSettingsFields } from './settings';

/**
 * The 'Configurar envio' dialog of the 'Números' page: a number's own sending settings, each with
 * 'Usar a configuração da conta' (then the PATCH sends null for it and the account's setting applies).
 */

export const connectionSettingKeys = [
  'messageDelay',
  'dailyLimit',
  'respectBusinessHours',
  'businessStart',
  'businessEnd',
  'warmup',
] as const;
export type ConnectionSettingKey = (typeof connectionSettingKeys)[number];

/** The account's side of each setting (Configurações › WhatsApp); warm-up has no account switch. */
export type AccountSendingSettings = Pick<
  WhatsappSettings,
  'messageDelay' | 'dailyLimit' | 'respectBusinessHours' | 'businessStart' | 'businessEnd'
>;

/** Personal numbers warm up unless the number turns it off: the account's "setting" for warm-up. */
export const ACCOUNT_WARMUP = true;

export const connectionSettingsFormMsg = {
  title: 'Configurar envio',
  description: 'As regras de envio deste número. O que usa a configuração da conta segue Configurações › WhatsApp.',
  useAccount: 'Usar a configuração da conta',
  saveError: 'Não foi possível salvar a configuração de envio.',
} as const;

/** What the form holds: a number input left empty is NaN (or undefined) and matters only when not the account's. */
export interface ConnectionSettingsFormValues {
  useAccount: Record<ConnectionSettingKey, boolean>;
  messageDelay: number | undefined;
  dailyLimit: number | undefined;
  respectBusinessHours: boolean;
  businessStart: string;
  businessEnd: string;
  warmup: boolean;
}

const F = whatsappSettingsFields.shape;

/** How each own value is checked: the account settings' own rules and pt-BR messages. */
const VALUE_SCHEMAS: Record<ConnectionSettingKey, z.ZodType> = {
  messageDelay: F.messageDelay,
  dailyLimit: F.dailyLimit,
  respectBusinessHours: F.respectBusinessHours,
  businessStart: F.businessStart,
  businessEnd: F.businessEnd,
  warmup: z.boolean({ error: 'Valor inválido' }),
};

/** The form's values for a number: its own settings, the account's shown where it has none. */
export function connectionSettingsFormValues(
  own: ConnectionSettings,
  account: AccountSendingSettings,
): ConnectionSettingsFormValues {
  const inherits = (key: ConnectionSettingKey) => own[key] === null || own[key] === undefined;
  return {
    useAccount: {
      messageDelay: inherits('messageDelay'),
      dailyLimit: inherits('dailyLimit'),
      respectBusinessHours: inherits('respectBusinessHours'),
      businessStart: inherits('businessStart'),
      businessEnd: inherits('businessEnd'),
      warmup: inherits('warmup'),
    },
    // Numbers the account decides stay empty (its value is the placeholder); switches and times show the account's.
    messageDelay: own.messageDelay ?? undefined,
    dailyLimit: own.dailyLimit ?? undefined,
    respectBusinessHours: own.respectBusinessHours ?? account.respectBusinessHours,
    businessStart: own.businessStart ?? account.businessStart,
    businessEnd: own.businessEnd ?? account.businessEnd,
    warmup: own.warmup ?? ACCOUNT_WARMUP,
  };
}

/**
 * The form's schema: checks only the values the number sets itself, and yields the PATCH's
 * `settings` (null for the account's). `personal`: warm-up is sent (Cloud API numbers have none).
 * With the account's settings, the business hours are checked in order as they will apply.
 */
export function connectionSettingsForm({ personal, account }: { personal: boolean; account?: AccountSendingSettings }) {
  const raw = z.object({
    useAccount: z.object({
      messageDelay: z.boolean(),
      dailyLimit: z.boolean(),
      respectBusinessHours: z.boolean(),
      businessStart: z.boolean(),
      businessEnd: z.boolean(),
      warmup: z.boolean(),
    }),
    messageDelay: z.custom<number | undefined>(() => true),
    dailyLimit: z.custom<number | undefined>(() => true),
    respectBusinessHours: z.custom<boolean>(() => true),
    businessStart: z.custom<string>(() => true),
    businessEnd: z.custom<string>(() => true),
    warmup: z.custom<boolean>(() => true),
  });
  const keys = connectionSettingKeys.filter((key) => personal || key !== 'warmup');
  return raw
    .superRefine((values, ctx) => {
      for (const key of keys) {
        if (values.useAccount[key]) continue;
        const parsed = VALUE_SCHEMAS[key].safeParse(values[key]);
        if (!parsed.success) ctx.addIssue({ code: 'custom', path: [key], message: parsed.error.issues[0]?.message });
      }
      const ownStart = !values.useAccount.businessStart;
      const ownEnd = !values.useAccount.businessEnd;
      if (!ownStart && !ownEnd) return;
      const start = ownStart ? values.businessStart : account?.businessStart;
      const end = ownEnd ? values.businessEnd : account?.businessEnd;
      if (!start || !end || !F.businessStart.safeParse(start).success || !F.businessEnd.safeParse(end).success) return;
      if (start >= end) {
        ctx.addIssue({
          code: 'custom',
          path: [ownEnd ? 'businessEnd' : 'businessStart'],
          message: settingsMsg.businessOrder,
        });
      }
    })
    .transform((values): ConnectionSettings => {
      const pick = <K extends ConnectionSettingKey>(key: K) =>
        (values.useAccount[key] ? null : values[key]) as NonNullable<ConnectionSettings[K]> | null;
      const settings: ConnectionSettings = {
        messageDelay: pick('messageDelay'),
        dailyLimit: pick('dailyLimit'),
        respectBusinessHours: pick('respectBusinessHours'),
        businessStart: pick('businessStart'),
        businessEnd: pick('businessEnd'),
      };
      if (personal) settings.warmup = pick('warmup');
      return settings;
    });
}
