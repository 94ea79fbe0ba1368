import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { loginInput } from '#contract/auth';
import { msg } from '#contract/messages';
import { passwordResetMsg } from '#contract/password-reset';
import { usernameInputProps } from '#web/components/field-presets';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage, isApiError } from '#web/lib/api';
import { useLogin } from '#web/lib/auth/login';
import { paths } from '#web/lib/paths';
import { formFieldProps } from '#web/lib/use-server-form';

export function LoginForm({ onDemoExpired }: { onDemoExpired: () => void }) {
  const loginMutation = useLogin();
  const form = useForm({
    resolver: zodResolver(loginInput),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = form.handleSubmit((values) =>
    loginMutation.mutate(values, {
      onError: (error) => {
        if (isApiError(error) && error.code === 'DEMO_EXPIRED') onDemoExpired();
        toast({
          title: msg.auth.loginErrorTitle,
          description: errorMessage(error, msg.auth.loginDefault),
          variant: 'destructive',
        });
      },
    }),
  );

  // After success the page is being replaced by /dashboard: keep the button busy.
  const busy = loginMutation.isPending || loginMutation.isSuccess;
  // An e-mail typed as the login comes along to 'Esqueci minha senha'.
  const typed = form.watch('username').trim();
  const forgotLink = typed.includes('@')
    ? `${paths.forgotPassword}?email=${encodeURIComponent(typed)}`
    : paths.forgotPassword;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField
        id="login-username"
        label="Usuário ou e-mail"
        {...usernameInputProps}
        placeholder="seu.usuario"
        {...formFieldProps(form, 'username')}
      />
      <FormField
        id="login-password"
        label="Senha"
        type="password"
        autoComplete="current-password"
        placeholder="••••••"
        {...formFieldProps(form, 'password')}
      />
      <Link
        to={forgotLink}
        className="justify-self-end text-sm font-medium text-brand-ink underline-offset-4 hover:underline"
      >
        {passwordResetMsg.forgotLink}
      </Link>
      <PendingButton type="submit" size="lg" className="mt-2 w-full" pending={busy} pendingLabel="Entrando...">
        Entrar
      </PendingButton>
    </form>
  );
}
