import { Ban, Hourglass } from 'lucide-react';
import { roleOf, type User } from '../../../../contract/auth';
import { msg } from '../../../../contract/messages';
import { RequestApprovalButton } from '../../../components/permission-gated-button';

/**
 * Pending accounts: 'Aguardando Aprovação'; deactivated customers: account disabled. Both with the one
 * 'Solicitar Aprovação' button of the page (the actions elsewhere are disabled and say why).
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
        </div>
      </div>
      <RequestApprovalButton size="sm" className="w-full sm:w-auto" />
    </section>
  );
}
