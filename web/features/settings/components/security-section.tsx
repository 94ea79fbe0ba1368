import { changePasswordInput, settingsMsg } from '#contract/settings';
import { FormField } from '#web/components/form-field';
import { toastSuccess } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useChangePassword } from '../api/change-password';
import { SaveButton, SettingsCard } from './settings-form-parts';

const fields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
/** The three password fields, in order: the current one, the new one and its confirmation. */
const passwordFields: readonly {
  name: (typeof fields)[number];
  id: string;
  label: string;
  autoComplete: string;
  hint?: string;
}[] = [
  { name: 'currentPassword', id: 'password-current', label: 'Senha atual', autoComplete: 'current-password' },
  {
    name: 'newPassword',
    id: 'password-new',
    label: 'Nova senha',
    autoComplete: 'new-password',
    hint: 'Mínimo de 6 caracteres.',
  },
  { name: 'confirmPassword', id: 'password-confirm', label: 'Confirmar nova senha', autoComplete: 'new-password' },
];
const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function SecuritySection({ readOnly }: { readOnly: boolean }) {
  const change = useChangePassword();
  const form = useServerForm(changePasswordInput, { defaultValues: empty, serverFields: fields });

  const onSubmit = form.handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: (res) => {
        form.reset(empty);
        toastSuccess(res.message);
      },
      onError: (error) =>
        form.failed(error, { title: settingsMsg.passwordErrorTitle, fallback: settingsMsg.saveError }),
    }),
  );

  return (
    <SettingsCard
      title="Segurança"
      description="Troque sua senha. Ao salvar, as sessões abertas em outros aparelhos são encerradas."
    >
      <form onSubmit={onSubmit} noValidate className="grid max-w-md gap-4">
        {passwordFields.map((field) => (
          <FormField
            key={field.name}
            id={field.id}
            label={field.label}
            type="password"
            autoComplete={field.autoComplete}
            hint={field.hint}
            readOnly={readOnly}
            {...formFieldProps(form, field.name)}
          />
        ))}
        <div>
          <SaveButton pending={change.isPending} readOnly={readOnly}>
            Alterar senha
          </SaveButton>
        </div>
      </form>
    </SettingsCard>
  );
}
