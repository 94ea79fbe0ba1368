import { CircleAlert, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { msg } from '#contract/messages';
import { TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS, teamMsg } from '#contract/team';
import { usernameInputProps } from '#web/components/field-presets';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { isApiError } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { usePageTitle } from '#web/lib/use-page-title';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { acceptInvitationForm } from '../accept-invitation-form';
import { useAcceptInvitation } from '../api/accept-invitation';
import { type InvitationPreview, useInvitation } from '../api/get-invitation';
import { AuthCard } from './auth-card';

/** The link cannot be used (unknown, expired, already used): say so, and the way to the login. */
function BadInvitation({ message }: { message: string }) {
  return (
    <div className="grid gap-4">
      <div role="alert" className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p className="text-sm">{message}</p>
      </div>
      <Button asChild size="lg" className="w-full">
        <Link to={paths.login}>Ir para o login</Link>
      </Button>
    </div>
  );
}

/** Who is invited, to which team, as what. */
function InvitationSummary({ invitation }: { invitation: InvitationPreview }) {
  return (
    <div className="grid gap-3 rounded-lg border border-brand-strong/30 bg-brand-soft/50 p-4 text-sm">
      <p className="flex items-start gap-3" data-testid="invitation-summary">
        <UsersRound aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-strong" />
        <span>
          Você foi convidado para a equipe de <strong>{invitation.accountName}</strong> como{' '}
          <strong>{TEAM_ROLE_LABELS[invitation.role].toLowerCase()}</strong>.
        </span>
      </p>
      <p className="text-muted-foreground">
        {TEAM_ROLE_LABELS[invitation.role]}: {TEAM_ROLE_DESCRIPTIONS[invitation.role]}
      </p>
      <dl className="grid gap-1">
        <div className="flex min-w-0 gap-2">
          <dt className="text-muted-foreground">Nome:</dt>
          <dd className="min-w-0 truncate font-medium">{invitation.name}</dd>
        </div>
        <div className="flex min-w-0 gap-2">
          <dt className="text-muted-foreground">Email:</dt>
          <dd className="min-w-0 font-medium break-all">{invitation.email}</dd>
        </div>
      </dl>
    </div>
  );
}

function AcceptForm({ token, onRefused }: { token: string; onRefused: (message: string) => void }) {
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const form = useServerForm(acceptInvitationForm, {
    defaultValues: { username: '', password: '', confirmPassword: '' },
    serverFields: ['username', 'password'],
  });

  const onSubmit = form.handleSubmit(({ username, password }) =>
    accept.mutate(
      { token, username, password },
      {
        onSuccess: () => navigate(paths.loginAfterInvitation, { replace: true }),
        onError: (error) => {
          // Spent or expired while the page was open: nothing left to fill in.
          if (isApiError(error) && error.status === 404) {
            onRefused(error.userMessage ?? teamMsg.invitationInvalid);
            return;
          }
          form.failed(error, { title: 'Erro ao criar o acesso', fallback: msg.generic.internal });
        },
      },
    ),
  );

  const busy = accept.isPending || accept.isSuccess;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField
        id="invitation-username"
        label="Nome de usuário"
        {...usernameInputProps}
        placeholder="maria.silva"
        hint="Letras, números, ponto, hífen e sublinhado. É com ele que você entra."
        {...formFieldProps(form, 'username')}
      />
      <FormField
        id="invitation-password"
        label="Senha"
        type="password"
        autoComplete="new-password"
        hint="Mínimo de 6 caracteres."
        {...formFieldProps(form, 'password')}
      />
      <FormField
        id="invitation-confirm"
        label="Confirmar senha"
        type="password"
        autoComplete="new-password"
        {...formFieldProps(form, 'confirmPassword')}
      />
      <PendingButton type="submit" size="lg" className="w-full" pending={busy} pendingLabel="Criando acesso...">
        {teamMsg.acceptSubmit}
      </PendingButton>
    </form>
  );
}

function InvitationBody({ token }: { token: string }) {
  const invitation = useInvitation(token);
  const [refused, setRefused] = useState<string | null>(null);

  if (refused) return <BadInvitation message={refused} />;
  if (invitation.isPending) {
    return (
      <div className="grid gap-4" role="status" aria-busy="true" aria-label="Carregando convite">
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-11 w-full" />
      </div>
    );
  }
  if (invitation.isError) {
    const error = invitation.error;
    if (isApiError(error) && error.status === 404) {
      return <BadInvitation message={error.userMessage ?? teamMsg.invitationInvalid} />;
    }
    return (
      <ErrorState
        title="Não foi possível abrir o convite."
        description={
          isApiError(error) && error.userMessage ? error.userMessage : 'Verifique sua conexão e tente novamente.'
        }
        onRetry={() => void invitation.refetch()}
        retrying={invitation.isFetching}
      />
    );
  }
  return (
    <div className="grid gap-6">
      <InvitationSummary invitation={invitation.data} />
      <AcceptForm token={token} onRefused={setRefused} />
    </div>
  );
}

/**
 * /convite?token=…: the page an invitation's e-mail (or the link the inviter sent) opens. It says
 * who invites whom as what, and the invitee picks a username and a password, then signs in.
 */
export default function AcceptInvitationPage() {
  usePageTitle(teamMsg.acceptTitle);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const invitation = useInvitation(token);
  const accountName = invitation.data?.accountName;
  return (
    <AuthCard
      title={teamMsg.acceptTitle}
      description={accountName ? teamMsg.acceptDescription(accountName) : undefined}
    >
      {token ? <InvitationBody token={token} /> : <BadInvitation message={teamMsg.invitationInvalid} />}
    </AuthCard>
  );
}
