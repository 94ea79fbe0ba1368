import { CircleAlert, MailCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { emailConfirmationMsg } from '#contract/email-confirmation';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { usePageTitle } from '#web/lib/use-page-title';
import { useConfirmEmail } from '../api/confirm-email';
import { AuthCard } from './auth-card';

function Outcome({ ok, message }: { ok: boolean; message: string }) {
  const Icon = ok ? MailCheck : CircleAlert;
  return (
    <div className="grid gap-4">
      <div
        role={ok ? 'status' : 'alert'}
        className={
          ok
            ? 'flex items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-800'
            : 'flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800'
        }
      >
        <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p className="text-sm">{message}</p>
      </div>
      <Button asChild size="lg" className="w-full">
        <Link to={paths.login}>{emailConfirmationMsg.goToLogin}</Link>
      </Button>
    </div>
  );
}

/**
 * /confirmar-email?token=…: the page the 'Confirme seu email' link opens. It confirms as it opens
 * (a person clicked the link); mail scanners that only fetch the link run no script, so they confirm nothing.
 */
export default function ConfirmEmailPage() {
  usePageTitle(emailConfirmationMsg.title);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const confirm = useConfirmEmail();
  const asked = useRef(false);
  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    confirm.mutate({ token });
  }, [token, confirm]);

  let body: React.ReactNode;
  if (!token) body = <Outcome ok={false} message={emailConfirmationMsg.missingLink} />;
  else if (confirm.isSuccess) body = <Outcome ok message={emailConfirmationMsg.done} />;
  else if (confirm.isError)
    body = <Outcome ok={false} message={errorMessage(confirm.error, emailConfirmationMsg.invalidLink)} />;
  else
    body = (
      <div className="flex items-center justify-center gap-2 py-6 text-sm text-muted-foreground">
        <Spinner />
        {emailConfirmationMsg.confirming}
      </div>
    );
  return (
    <AuthCard
      title={
        confirm.isSuccess
          ? emailConfirmationMsg.doneTitle
          : confirm.isError || !token
            ? emailConfirmationMsg.errorTitle
            : emailConfirmationMsg.title
      }
    >
      {body}
    </AuthCard>
  );
}
