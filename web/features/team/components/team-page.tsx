import { Clock, Link2, MailX, UserPlus, UsersRound } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { countLabel } from '#contract/plural';
import { type MemberRole, TEAM_ROLE_LABELS, type TeamInvitation, type TeamMember, teamMsg } from '#contract/team';
import { twoFactorMsg } from '#contract/two-factor';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { ListSkeleton } from '#web/components/list-skeleton';
import { LockedPage } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { SwitchRow } from '#web/components/ui/switch-row';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { useCanAct } from '#web/lib/auth/use-can-act';
import { formatDateTime, formatNumber, formatRelativeTime } from '#web/lib/format';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useNow } from '#web/lib/use-now';
import { useCancelInvitation } from '../api/cancel-invitation';
import { type CreateInvitationResponse, useCreateInvitation } from '../api/create-invitation';
import { useTeam } from '../api/get-team';
import { useResetMemberTwoFactor } from '../api/reset-member-two-factor';
import { useUpdateMember } from '../api/update-member';
import { useUpdateTeamSettings } from '../api/update-team-settings';
import { InvitationLink, InviteMemberDialog } from './invite-member-dialog';
import { MemberRow, ROLE_BADGE_TONES } from './member-row';

/** How many of the plan's places are taken: the owner, the active members and the open invitations. */
export function placesTaken(members: readonly Pick<TeamMember, 'role' | 'isActive'>[], invitations: number): number {
  return members.filter((m) => m.role === 'owner' || m.isActive).length + invitations;
}

/** A member row's shape while the team loads. */
function MemberSkeleton(i: number) {
  return (
    <div key={i} className="flex items-center gap-3 border-b px-4 py-4 last:border-b-0">
      <Skeleton className="size-10 rounded-full" />
      <div className="grid flex-1 gap-2">
        <Skeleton className="h-4 w-48 max-w-full" />
        <Skeleton className="h-3 w-64 max-w-full" />
      </div>
    </div>
  );
}

/** One open invitation: who, as what, since when and until when; 'Gerar novo link' and 'Cancelar convite'. */
function InvitationRow({
  invitation: inv,
  now,
  renewing,
  onRenew,
  onCancel,
}: {
  invitation: TeamInvitation;
  now: number;
  renewing: boolean;
  onRenew: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="flex flex-col gap-3 px-4 py-4 md:flex-row md:items-center" data-testid="team-invitation">
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="min-w-0 truncate font-medium">{inv.name}</span>
          <Badge tone={ROLE_BADGE_TONES[inv.role]}>{TEAM_ROLE_LABELS[inv.role]}</Badge>
          <Badge tone="yellow">Pendente</Badge>
        </div>
        <p className="min-w-0 text-sm break-all text-muted-foreground">{inv.email}</p>
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Clock aria-hidden className="size-3.5 shrink-0" />
          <span>
            Enviado {formatRelativeTime(inv.createdAt, now)} · expira em {formatDateTime(inv.expiresAt)}
          </span>
        </p>
      </div>
      <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 md:flex md:shrink-0">
        <PermissionGatedButton
          variant="outline"
          size="sm"
          icon={renewing ? <Spinner /> : <Link2 aria-hidden />}
          disabled={renewing}
          onClick={onRenew}
        >
          Gerar novo link
          <span className="sr-only"> para {inv.name}</span>
        </PermissionGatedButton>
        <PermissionGatedButton
          variant="ghost"
          size="sm"
          className="text-red-700 hover:bg-red-50"
          icon={<MailX aria-hidden />}
          onClick={onCancel}
        >
          {teamMsg.revoke}
          <span className="sr-only"> de {inv.name}</span>
        </PermissionGatedButton>
      </div>
    </div>
  );
}

/**
 * /equipe (Equipe): the account's people with their roles, the open invitations, and 'Convidar
 * membro'; owners and managers change the others' roles and access (never the owner's, nor their own).
 */
export default function TeamPage() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const team = useTeam(readable);
  const update = useUpdateMember();
  const cancel = useCancelInvitation();
  const renew = useCreateInvitation();
  const settings = useUpdateTeamSettings();
  const isOwner = user.teamRole === 'owner';
  const canChange = useCanAct().state === 'allowed';
  const now = useNow(30_000);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [deactivating, setDeactivating] = useState<TeamMember | null>(null);
  const [resetting, setResetting] = useState<TeamMember | null>(null);
  const resetTwoFactor = useResetMemberTwoFactor();
  const [cancelling, setCancelling] = useState<TeamInvitation | null>(null);
  const [renewed, setRenewed] = useState<CreateInvitationResponse | null>(null);

  const header = (
    <div className="grid gap-1">
      <h2 className="text-lg font-semibold">{teamMsg.title}</h2>
      <p className="text-sm text-muted-foreground">{teamMsg.description}</p>
    </div>
  );
  if (!readable) return <LockedPage header={header} />;

  const data = team.data;
  const taken = data ? placesTaken(data.members, data.invitations.length) : 0;
  const full = data ? taken >= data.limit : false;

  const busyOf = (m: TeamMember) =>
    resetTwoFactor.isPending && resetTwoFactor.variables === m.id
      ? 'twoFactor'
      : update.isPending && update.variables?.id === m.id
        ? update.variables.input.role !== undefined
          ? 'role'
          : 'active'
        : null;

  const confirmReset = () => {
    if (!resetting) return;
    resetTwoFactor.mutate(resetting.id, {
      onSuccess: (res) => {
        toastSuccess(res.message);
        setResetting(null);
      },
      onError: (error) => toastError(error, 'Não foi possível redefinir a verificação em duas etapas.'),
    });
  };

  const changeRole = (m: TeamMember, role: MemberRole) =>
    update.mutate(
      { id: m.id, input: { role } },
      {
        onSuccess: () => toastSuccess(`Papel de ${m.name}: ${TEAM_ROLE_LABELS[role].toLowerCase()}.`),
        onError: (error) => toastError(error, 'Não foi possível mudar o papel.'),
      },
    );

  const setActive = (m: TeamMember, isActive: boolean, after?: () => void) =>
    update.mutate(
      { id: m.id, input: { isActive } },
      {
        onSuccess: () => {
          toastSuccess(`Acesso de ${m.name} ${isActive ? 'reativado' : 'desativado'}.`);
          after?.();
        },
        onError: (error) =>
          toastError(error, isActive ? 'Não foi possível reativar o membro.' : 'Não foi possível desativar o membro.'),
      },
    );

  const renewLink = (inv: TeamInvitation) =>
    renew.mutate(
      { name: inv.name, email: inv.email, role: inv.role },
      {
        onSuccess: setRenewed,
        onError: (error) => toastError(error, 'Não foi possível gerar um novo link.'),
      },
    );

  const setRequireTwoFactor = (requireTwoFactor: boolean) =>
    settings.mutate(
      { requireTwoFactor },
      {
        onSuccess: (res) => toastSuccess(res.message),
        onError: (error) => toastError(error, 'Não foi possível salvar a configuração da equipe.'),
      },
    );

  const confirmCancel = () => {
    if (!cancelling) return;
    cancel.mutate(cancelling.id, {
      onSuccess: (res) => {
        toastSuccess(res.message);
        setCancelling(null);
      },
      onError: (error) => toastError(error, 'Não foi possível cancelar o convite.'),
    });
  };

  const inviteButton = (
    <PermissionGatedButton
      icon={<UserPlus aria-hidden />}
      disabled={!data || full}
      title={full && data ? teamMsg.limitReached(data.limit) : undefined}
      onClick={() => setInviteOpen(true)}
    >
      {teamMsg.invite}
    </PermissionGatedButton>
  );

  let body: ReactNode;
  if (team.isPending) {
    body = (
      <Card className="overflow-hidden p-0">
        <ListSkeleton label="Carregando equipe" rows={3} className="grid" renderRow={MemberSkeleton} />
      </Card>
    );
  } else if (team.isError || !data) {
    body = (
      <Card>
        <ErrorState
          title="Não foi possível carregar a equipe."
          onRetry={() => void team.refetch()}
          retrying={team.isFetching}
        />
      </Card>
    );
  } else {
    const alone = data.members.length <= 1 && data.invitations.length === 0;
    body = (
      <>
        <Card className="overflow-hidden p-0">
          <CardHeader className="border-b">
            <CardTitle>Membros</CardTitle>
            <CardDescription>
              {countLabel(data.members.length, 'pessoa nesta conta', 'pessoas nesta conta')}
            </CardDescription>
          </CardHeader>
          <ul className="divide-y" aria-label="Membros da equipe" aria-busy={team.isFetching || undefined}>
            {data.members.map((m) => (
              <li key={m.id}>
                <MemberRow
                  member={m}
                  isSelf={m.id === user.id}
                  now={now}
                  canChange={canChange}
                  busy={busyOf(m)}
                  onRoleChange={(role) => changeRole(m, role)}
                  onDeactivate={() => setDeactivating(m)}
                  onReactivate={() => setActive(m, true)}
                  onResetTwoFactor={() => setResetting(m)}
                />
              </li>
            ))}
          </ul>
          {alone ? (
            <div className="border-t">
              <EmptyState
                icon={UsersRound}
                title="Ninguém mais na equipe ainda"
                description="Convide gerentes e atendentes: cada pessoa entra com o próprio usuário e senha, e o papel decide o que ela pode fazer."
                action={full ? null : inviteButton}
              />
            </div>
          ) : null}
        </Card>

        {isOwner ? (
          <Card data-testid="team-two-factor">
            <CardHeader>
              <CardTitle>{twoFactorMsg.title}</CardTitle>
            </CardHeader>
            <CardContent>
              <SwitchRow
                id="team-require-two-factor"
                label={twoFactorMsg.requireLabel}
                description={twoFactorMsg.requireHint}
                checked={settings.isPending ? settings.variables.requireTwoFactor : data.requireTwoFactor}
                disabled={!canChange || settings.isPending}
                onCheckedChange={setRequireTwoFactor}
              />
            </CardContent>
          </Card>
        ) : null}

        {data.invitations.length > 0 ? (
          <Card className="overflow-hidden p-0">
            <CardHeader className="border-b">
              <CardTitle>Convites pendentes</CardTitle>
              <CardDescription>
                Cada link funciona uma vez. Cancele um convite para liberar o lugar, ou gere um novo link se o primeiro
                se perdeu.
              </CardDescription>
            </CardHeader>
            <ul className="divide-y" aria-label="Convites pendentes">
              {data.invitations.map((inv) => (
                <li key={inv.id}>
                  <InvitationRow
                    invitation={inv}
                    now={now}
                    renewing={renew.isPending && renew.variables?.email === inv.email}
                    onRenew={() => renewLink(inv)}
                    onCancel={() => setCancelling(inv)}
                  />
                </li>
              ))}
            </ul>
          </Card>
        ) : null}
      </>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        {header}
        <div className="grid gap-2 sm:justify-items-end">
          {data ? (
            <p className="text-sm" data-testid="team-places">
              <span className="font-semibold tabular-nums">
                {formatNumber(taken)} de {countLabel(data.limit, 'pessoa', 'pessoas')}
              </span>
              <span className="text-muted-foreground"> no seu plano</span>
            </p>
          ) : (
            <Skeleton className="h-5 w-32" />
          )}
          {inviteButton}
        </div>
      </div>

      {full && data ? (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="team-full"
        >
          {teamMsg.limitReached(data.limit)}
        </p>
      ) : null}

      {body}

      <InviteMemberDialog open={inviteOpen} onOpenChange={setInviteOpen} />

      <Dialog open={renewed !== null} onOpenChange={(open) => !open && setRenewed(null)}>
        <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>Novo link do convite</DialogTitle>
            <DialogDescription>O link anterior deixou de funcionar.</DialogDescription>
          </DialogHeader>
          {renewed ? <InvitationLink sent={renewed} /> : null}
        </DialogContent>
      </Dialog>

      <ConfirmDialog
        open={deactivating !== null}
        onCancel={() => setDeactivating(null)}
        title={`Desativar ${deactivating?.name ?? ''}`}
        description={
          <>
            {deactivating?.name} sai na hora de todas as sessões abertas e não consegue mais entrar nesta conta. Você
            pode reativar depois.
          </>
        }
        confirmLabel={teamMsg.deactivate}
        pendingLabel="Desativando..."
        pending={update.isPending && update.variables?.id === deactivating?.id}
        onConfirm={() => deactivating && setActive(deactivating, false, () => setDeactivating(null))}
      />

      <ConfirmDialog
        open={resetting !== null}
        onCancel={() => setResetting(null)}
        title={teamMsg.resetTwoFactorTitle(resetting?.name ?? '')}
        description={teamMsg.resetTwoFactorDescription}
        confirmLabel={teamMsg.resetTwoFactor}
        pendingLabel="Redefinindo..."
        pending={resetTwoFactor.isPending}
        onConfirm={confirmReset}
      />

      <ConfirmDialog
        open={cancelling !== null}
        onCancel={() => setCancelling(null)}
        title={teamMsg.revoke}
        description={<>O link enviado para {cancelling?.email} deixa de funcionar, e o lugar volta para o seu plano.</>}
        confirmLabel={teamMsg.revoke}
        cancelLabel="Voltar"
        pendingLabel="Cancelando..."
        pending={cancel.isPending}
        onConfirm={confirmCancel}
      />
    </div>
  );
}
