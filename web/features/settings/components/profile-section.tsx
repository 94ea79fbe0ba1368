import { useEffect } from 'react';
import { type Profile, settingsMsg, updateProfileInput } from '#contract/settings';
import { FormField } from '#web/components/form-field';
import { toastSuccess } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useProfile } from '../api/get-profile';
import { useUpdateProfile } from '../api/update-profile';
import { LoadedSettingsCard, SaveButton } from './settings-form-parts';

const fields = ['name', 'email', 'phone', 'company'] as const;

function ProfileForm({ profile, readOnly }: { profile: Profile; readOnly: boolean }) {
  const save = useUpdateProfile();
  const form = useServerForm(updateProfileInput, { defaultValues: profile, serverFields: fields });
  useEffect(() => form.reset(profile), [profile, form]);

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toastSuccess(settingsMsg.saved),
      onError: (error) => form.failed(error, settingsMsg.saveError),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 md:grid-cols-2">
        <FormField
          id="profile-name"
          label="Nome"
          autoComplete="name"
          readOnly={readOnly}
          {...formFieldProps(form, 'name')}
        />
        <FormField
          id="profile-email"
          label="Email"
          type="email"
          autoComplete="email"
          readOnly={readOnly}
          {...formFieldProps(form, 'email')}
        />
        <FormField
          id="profile-phone"
          label="Telefone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          readOnly={readOnly}
          {...formFieldProps(form, 'phone')}
        />
        <FormField
          id="profile-company"
          label="Empresa"
          autoComplete="organization"
          readOnly={readOnly}
          {...formFieldProps(form, 'company')}
        />
      </div>
      <div>
        <SaveButton pending={save.isPending} readOnly={readOnly} />
      </div>
    </form>
  );
}

export function ProfileSection({ readOnly }: { readOnly: boolean }) {
  const query = useProfile();
  return (
    <LoadedSettingsCard
      title="Perfil"
      description="Seus dados de contato. O email também serve para entrar."
      query={query}
    >
      {(data) => <ProfileForm profile={data} readOnly={readOnly} />}
    </LoadedSettingsCard>
  );
}
