import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, MailCheck, MessageCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { forgotPasswordInput, passwordResetMsg } from '#contract/password-reset';
import { emailInputProps } from '#web/components/field-presets';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { usePublicConfig, useSupportWhatsappLink } from '#web/lib/public-config';
import { usePageTitle } from '#web/lib/use-page-title';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard } from './auth-card';

function BackToLogin() {
  return (
    <Button asChild variant="outline" size="lg" className="w-full">
      <Link to={paths.login}>
        <ArrowLeft aria-hidden />
        {passwordResetMsg.backToLogin}
      </Link>
    </Button>
  );
}

/** Production without SMTP_URL: no e-mail leaves the server, so the support resets the password. */
function Unavailable() {
  const link = useSupportWhatsappLink('Olá! Esqueci minha senha e preciso redefini-la.');
  return (
    <div className="grid gap-4">
      <p role="status" className="text-sm">
        {passwordResetMsg.unavailable}
      </p>
      {link ? (
        <Button asChild size="lg" className="w-full">
          <a href={link} target="_blank" rel="noopener noreferrer">
            <MessageCircle aria-hidden />
            Falar com o suporte pelo WhatsApp
          </a>
        </Button>
      ) : null}
      <BackToLogin />
    </div>
  );
}

/** After a request: the one answer, whether or not the address has an account. */
function Sent({ message }: { message: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="grid gap-4 text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
        <MailCheck aria-hidden className="size-6" />
      </span>
      <h2 ref={ref} tabIndex={-1} className="text-lg font-semibold focus-visible:outline-none">
        {passwordResetMsg.forgotSentTitle}
      </h2>
      <p role="status" className="text-sm text-muted-foreground">
        {message}
      </p>
      <BackToLogin />
    </div>
  );
}

function ForgotForm() {
  const [searchParams] = useSearchParams();
  const request = useForgotPassword();
  const form = useForm({
    resolver: zodResolver(forgotPasswordInput),
    defaultValues: { email: searchParams.get('email') ?? '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    request.mutate(values, {
      onError: (error) =>
        toast({
          title: passwordResetMsg.forgotErrorTitle,
          description: errorMessage(error, passwordResetMsg.forgotErrorTitle),
          variant: 'destructive',
        }),
    }),
  );
  if (request.isSuccess) return <Sent message={request.data.message} />;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField
        id="forgot-email"
        label="Email"
        {...emailInputProps}
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
      <PendingButton type="submit" size="lg" className="w-full" pending={request.isPending} pendingLabel="Enviando...">
        {passwordResetMsg.forgotSubmit}
      </PendingButton>
      <Link
        to={paths.login}
        className="text-center text-sm font-medium text-brand-ink underline-offset-4 hover:underline"
      >
        {passwordResetMsg.backToLogin}
      </Link>
    </form>
  );
}

/** /esqueci-senha: the e-mail of the account, to receive a link that sets a new password. */
export default function ForgotPasswordPage() {
  usePageTitle(passwordResetMsg.forgotLink);
  const config = usePublicConfig();
  return (
    <AuthCard
      title={passwordResetMsg.forgotTitle}
      description={
        config.data?.emailAvailable === false ? passwordResetMsg.unavailableTitle : passwordResetMsg.forgotDescription
      }
    >
      {config.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : config.data?.emailAvailable === false ? (
        <Unavailable />
      ) : (
        <ForgotForm />
      )}
    </AuthCard>
  );
}
