import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
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
import { needsSecondFactor, useLogin } from '#web/lib/auth/login';
import { paths } from '#web/lib/paths';
import { formFieldProps } from '#web/lib/use-server-form';
import { TwoFactorLoginStep } from './two-factor-login-step';

export function LoginForm({ onDemoExpired }: { onDemoExpired: () => void }) {
  const loginMutation = useLogin();
  // The password was right and two-factor sign-in is on: the same card asks for the code.
  const [codeStep, setCodeStep] = useState(false);
  // Why the code step ended (the challenge expired): shown above the password again.
  const [notice, setNotice] = useState('');
  const form = useForm({
    resolver: zodResolver(loginInput),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = form.handleSubmit((values) =>
    loginMutation.mutate(values, {
      onSuccess: (outcome) => {
        if (!needsSecondFactor(outcome)) return;
        setNotice('');
        setCodeStep(true);
      },
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
  const busy = loginMutation.isPending || (loginMutation.isSuccess && !needsSecondFactor(loginMutation.data));
  // An e-mail typed as the login comes along to 'Esqueci minha senha'.
  const typed = form.watch('username').trim();
  const forgotLink = typed.includes('@')
    ? `${paths.forgotPassword}?email=${encodeURIComponent(typed)}`
    : paths.forgotPassword;

  if (codeStep) {
    return (
      <TwoFactorLoginStep
        onChallengeEnded={(message) => {
          setNotice(message);
          setCodeStep(false);
          loginMutation.reset();
          form.setValue('password', '');
        }}
      />
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {notice ? (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          {notice}
        </p>
      ) : null}
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
