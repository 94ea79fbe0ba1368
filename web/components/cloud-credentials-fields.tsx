import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';

/** The Cloud API credentials of SPEC §3, in the order the forms show them. */
export type CloudCredentialField = 'accessToken' | 'phoneNumberId' | 'businessAccountId' | 'appId' | 'appSecret';

/**
 * The Cloud API credentials' fields, the one copy of them: the 'Números' page's 'Adicionar número'
 * (a new Cloud number) and the dashboard's 'API WhatsApp' panel (the spec's form, for the account's
 * primary Cloud number) both render these inside their own two-column grid.
 */
export function CloudCredentialsFields({
  register,
  errors,
  saved,
  idPrefix,
}: {
  register: (name: CloudCredentialField) => UseFormRegisterReturn;
  errors: Partial<Record<CloudCredentialField, { message?: string } | undefined>>;
  /** What is stored already (never shown back): the secret fields say so in their placeholder. */
  saved?: { accessToken: boolean; appSecret: boolean };
  /** Stable ids for the inputs (`<prefix>-access-token`…); otherwise generated. */
  idPrefix?: string;
}) {
  const id = (name: string) => (idPrefix ? `${idPrefix}-${name}` : undefined);
  return (
    <>
      <div className="sm:col-span-2">
        <FormField
          id={id('access-token')}
          label="Access Token *"
          type="password"
          autoComplete="off"
          placeholder={saved?.accessToken ? '•••••••• (salvo)' : 'EAAG...'}
          error={errors.accessToken?.message}
          {...register('accessToken')}
        />
      </div>
      <FormField
        id={id('phone-number-id')}
        label="Phone Number ID *"
        inputMode="numeric"
        autoComplete="off"
        error={errors.phoneNumberId?.message}
        {...register('phoneNumberId')}
      />
      <FormField
        id={id('account-id')}
        label="Business Account ID (opcional)"
        inputMode="numeric"
        autoComplete="off"
        error={errors.businessAccountId?.message}
        {...register('businessAccountId')}
      />
      <FormField
        id={id('app-id')}
        label="App ID (opcional)"
        inputMode="numeric"
        autoComplete="off"
        error={errors.appId?.message}
        {...register('appId')}
      />
      <FormField
        id={id('app-secret')}
        label="App Secret (opcional, necessário para o webhook)"
        type="password"
        autoComplete="off"
        placeholder={saved?.appSecret ? '•••••••• (salvo)' : ''}
        error={errors.appSecret?.message}
        {...register('appSecret')}
      />
    </>
  );
}
