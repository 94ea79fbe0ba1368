import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { passwordResetMsg, resetPasswordForm } from '#contract/password-reset';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage, isApiError } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { usePageTitle } from '#web/lib/use-page-title';
import { formFieldProps } from '#web/lib/use-server-form';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from './auth-card';

/** The link cannot be used: ask for a new one. */
function BadLink({ message }: { message: string }) {
  return (
    <div className="grid gap-4">
      <div role="alert" className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p className="text-sm">{message}</p>
      </div>
      <Button asChild size="lg" className="w-full">
        <Link to={paths.forgotPassword}>{passwordResetMsg.requestNewLink}</Link>
      </Button>
      <Link
        to={paths.login}
        className="text-center text-sm font-medium text-brand-ink underline-offset-4 hover:underline"
      >
        {passwordResetMsg.backToLogin}
      </Link>
    </div>
  );
}

function ResetForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const [refused, setRefused] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = form.handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        // Every session of the account has ended: a full load of the login page starts clean.
        onSuccess: () => window.location.assign(paths.loginAfterReset),
        onError: (error) => {
          if (isApiError(error) && error.userMessage === passwordResetMsg.invalidLink) {
            setRefused(error.userMessage);
            return;
          }
          toast({
            title: passwordResetMsg.resetErrorTitle,
            description: errorMessage(error, passwordResetMsg.resetErrorTitle),
            variant: 'destructive',
          });
        },
      },
    ),
  );

  if (refused) return <BadLink message={refused} />;
  const busy = reset.isPending || reset.isSuccess;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField
        id="reset-password"
        label="Nova senha"
        type="password"
        autoComplete="new-password"
        hint="Mínimo de 6 caracteres."
        {...formFieldProps(form, 'password')}
      />
      <FormField
        id="reset-confirm"
        label="Confirmar nova senha"
        type="password"
        autoComplete="new-password"
        {...formFieldProps(form, 'confirmPassword')}
      />
      <PendingButton type="submit" size="lg" className="w-full" pending={busy} pendingLabel="Salvando...">
        {passwordResetMsg.resetSubmit}
      </PendingButton>
    </form>
  );
}

/** /redefinir-senha?token=…: the page the e-mailed link opens; the new password twice. */
export default function ResetPasswordPage() {
  usePageTitle(passwordResetMsg.resetTitle);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  return (
    <AuthCard title={passwordResetMsg.resetTitle} description={passwordResetMsg.resetDescription}>
      {token ? <ResetForm token={token} /> : <BadLink message={passwordResetMsg.missingLink} />}
    </AuthCard>
  );
}
