import { changePasswordInput, settingsMsg } from '#contract/settings';
import { FormField } from '#web/components/form-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { toastSuccess } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useChangePassword } from '../api/change-password';
import { SaveButton } from './settings-form-parts';

const fields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
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
    <Card>
      <CardHeader>
        <CardTitle>Segurança</CardTitle>
        <CardDescription>
          Troque sua senha. Ao salvar, as sessões abertas em outros aparelhos são encerradas.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid max-w-md gap-4">
          <FormField
            id="password-current"
            label="Senha atual"
            type="password"
            autoComplete="current-password"
            readOnly={readOnly}
            {...formFieldProps(form, 'currentPassword')}
          />
          <FormField
            id="password-new"
            label="Nova senha"
            type="password"
            autoComplete="new-password"
            hint="Mínimo de 6 caracteres."
            readOnly={readOnly}
            {...formFieldProps(form, 'newPassword')}
          />
          <FormField
            id="password-confirm"
            label="Confirmar nova senha"
            type="password"
            autoComplete="new-password"
            readOnly={readOnly}
            {...formFieldProps(form, 'confirmPassword')}
          />
          <div>
            <SaveButton pending={change.isPending} readOnly={readOnly}>
              Alterar senha
            </SaveButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
