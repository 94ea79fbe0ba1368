import { type RegisterInput, registerInput } from '#contract/auth';
import { msg } from '#contract/messages';
import { emailInputProps, usernameInputProps, whatsappInputProps } from '#web/components/field-presets';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { toast } from '#web/components/ui/use-toast';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useRegister } from '../api/register';

const fieldNames = ['name', 'email', 'username', 'password', 'whatsappNumber'] as const;

export function RegisterForm({ onRegistered }: { onRegistered: (email: string) => void }) {
  const registerMutation = useRegister();
  const form = useServerForm(registerInput, {
    defaultValues: { name: '', email: '', username: '', password: '', whatsappNumber: '' },
    serverFields: fieldNames,
  });

  const onSubmit = form.handleSubmit((values: RegisterInput) =>
    registerMutation.mutate(values, {
      onSuccess: () => {
        toast({ title: msg.auth.registerSuccessTitle, description: msg.auth.registerSuccess, variant: 'success' });
        onRegistered(values.email);
      },
      // 400 carries per-field messages: they show under the fields too.
      onError: (error) => form.failed(error, { title: msg.auth.registerErrorTitle, fallback: msg.generic.internal }),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField
        id="register-name"
        label="Nome completo"
        autoComplete="name"
        placeholder="Maria da Silva"
        {...formFieldProps(form, 'name')}
      />
      <FormField id="register-email" label="Email" {...emailInputProps} {...formFieldProps(form, 'email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="register-username"
          label="Nome de usuário"
          {...usernameInputProps}
          placeholder="maria.silva"
          {...formFieldProps(form, 'username')}
        />
        <FormField
          id="register-password"
          label="Senha"
          type="password"
          autoComplete="new-password"
          placeholder="Mínimo de 6 caracteres"
          {...formFieldProps(form, 'password')}
        />
      </div>
      <FormField
        id="register-whatsapp"
        label="WhatsApp"
        {...whatsappInputProps}
        hint="Com DDD. Usaremos este número para liberar sua conta."
        {...formFieldProps(form, 'whatsappNumber')}
      />
      <PendingButton
        type="submit"
        size="lg"
        className="mt-2 w-full"
        pending={registerMutation.isPending}
        pendingLabel="Criando conta..."
      >
        Criar Conta
      </PendingButton>
    </form>
  );
}
