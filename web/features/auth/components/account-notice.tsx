import { Ban, Hourglass, MailCheck } from 'lucide-react';
import { roleOf, type User } from '#contract/auth';
import { emailConfirmationMsg } from '#contract/email-confirmation';
import { msg } from '#contract/messages';
import { PendingButton } from '#web/components/pending-button';
import { RequestApprovalButton } from '#web/components/permission-gated-button';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { usePublicConfig } from '#web/lib/public-config';
import { useResendConfirmation } from '../api/resend-confirmation';

/**
 * Pending accounts: 'Aguardando Aprovação'; deactivated customers: account disabled. Both with the one
 * 'Solicitar Aprovação' button of the page (the actions elsewhere are disabled and say why). A pending
 * account that has not confirmed its e-mail is reminded to, with 'Reenviar e-mail de confirmação'
 * (where this server sends e-mail).
 */
export function AccountNotice({ user }: { user: User }) {
  const role = roleOf(user);
  if (role !== 'pending' && role !== 'inactive') return null;
  const pending = role === 'pending';
  const Icon = pending ? Hourglass : Ban;
  return (
    <section
      aria-labelledby="account-notice-title"
      className={
        pending
          ? 'flex flex-col gap-3 border-b border-amber-200 bg-amber-50 px-4 py-3 text-amber-900 sm:flex-row sm:items-center sm:px-6 lg:px-8'
          : 'flex flex-col gap-3 border-b border-red-200 bg-red-50 px-4 py-3 text-red-900 sm:flex-row sm:items-center sm:px-6 lg:px-8'
      }
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-0.5">
          <h2 id="account-notice-title" className="font-semibold">
            {pending ? 'Aguardando Aprovação' : 'Conta desativada'}
          </h2>
          <p className="text-sm">{pending ? msg.roles.pendingRestricted : msg.roles.inactiveRestricted}</p>
          {pending && !user.emailConfirmedAt ? <EmailConfirmationReminder email={user.email} /> : null}
        </div>
      </div>
      <RequestApprovalButton size="sm" className="w-full sm:w-auto" />
    </section>
  );
}

function EmailConfirmationReminder({ email }: { email: string }) {
  const emailAvailable = usePublicConfig().data?.emailAvailable ?? false;
  const resend = useResendConfirmation();
  if (!emailAvailable) return null;
  const onResend = () =>
    resend.mutate(undefined, {
      onSuccess: (res) =>
        toast({ title: emailConfirmationMsg.resentTitle, description: res.message, variant: 'success' }),
      onError: (error) =>
        toast({
          title: emailConfirmationMsg.resendErrorTitle,
          description: errorMessage(error, msg.generic.internal),
          variant: 'destructive',
        }),
    });
  return (
    <div className="mt-1 flex flex-col items-start gap-2 sm:flex-row sm:items-center">
      <p className="flex items-start gap-1.5 text-sm">
        <MailCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span className="[overflow-wrap:anywhere]">{emailConfirmationMsg.pendingNotice(email)}</span>
      </p>
      <PendingButton
        type="button"
        variant="outline"
        size="sm"
        className="border-amber-300 bg-white text-amber-900 hover:bg-amber-100"
        onClick={onResend}
        pending={resend.isPending}
        pendingLabel={emailConfirmationMsg.resending}
      >
        {emailConfirmationMsg.resendButton}
      </PendingButton>
    </div>
  );
}
