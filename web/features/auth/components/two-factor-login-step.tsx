import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { msg } from '#contract/messages';
import { loginTwoFactorInput, twoFactorMsg } from '#contract/two-factor';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { Button } from '#web/components/ui/button';
import { isApiError } from '#web/lib/api';
import { useLoginWithCode } from '#web/lib/auth/login';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';

/**
 * The second step of a sign-in with two-factor on: the authenticator app's code (or a recovery code).
 * A challenge that ended (401: expired, or too many wrong codes) sends the person back to the password.
 */
export function TwoFactorLoginStep({ onChallengeEnded }: { onChallengeEnded: (message: string) => void }) {
  const loginMutation = useLoginWithCode();
  const form = useServerForm(loginTwoFactorInput, { defaultValues: { code: '' }, serverFields: ['code'] });

  const onSubmit = form.handleSubmit((values) =>
    loginMutation.mutate(values, {
      onError: (error) => {
        if (isApiError(error) && error.status === 401) {
          onChallengeEnded(error.userMessage ?? twoFactorMsg.challengeExpired);
          return;
        }
        form.failed(error, { title: msg.auth.loginErrorTitle, fallback: msg.auth.loginDefault });
      },
    }),
  );

  // After success the page is being replaced by /dashboard: keep the button busy.
  const busy = loginMutation.isPending || loginMutation.isSuccess;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" data-testid="two-factor-login">
      <div className="flex items-start gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-brand-soft text-brand-ink">
          <ShieldCheck aria-hidden className="size-5" />
        </span>
        <h2 className="self-center text-base font-semibold">{twoFactorMsg.loginTitle}</h2>
      </div>
      <FormField
        id="login-code"
        label={twoFactorMsg.codeLabel}
        hint={twoFactorMsg.loginHint}
        autoComplete="one-time-code"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        autoFocus
        placeholder="123456"
        {...formFieldProps(form, 'code')}
      />
      <PendingButton type="submit" size="lg" className="mt-2 w-full" pending={busy} pendingLabel="Verificando...">
        {twoFactorMsg.loginSubmit}
      </PendingButton>
      <Button
        type="button"
        variant="ghost"
        className="justify-self-center"
        disabled={busy}
        onClick={() => onChallengeEnded('')}
      >
        <ArrowLeft aria-hidden />
        Voltar para a senha
      </Button>
    </form>
  );
}
