import { ShieldCheck, ShieldOff, UserRoundCheck, UserRoundX } from 'lucide-react';
import { useId } from 'react';
import type { TeamRole } from '#contract/auth';
import { type MemberRole, memberRoles, TEAM_ROLE_LABELS, type TeamMember, teamMsg } from '#contract/team';
import { twoFactorMsg } from '#contract/two-factor';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Avatar } from '#web/components/ui/avatar';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Label } from '#web/components/ui/label';
import { LabelledOptions, NativeSelect } from '#web/components/ui/select';
import { Spinner } from '#web/components/ui/spinner';
import { formatDateTime, formatRelativeTime } from '#web/lib/format';
import { cn } from '#web/lib/utils';

/** Each role's badge colour: the owner stands out, managers next. */
export const ROLE_BADGE_TONES: Record<TeamRole, BadgeTone> = {
  owner: 'purple',
  manager: 'blue',
  agent: 'neutral',
};

/** 'Visto por último há 5m', 'Online agora', or that the person never came in. */
export function lastSeenText(lastSeenAt: string | null, now: number): string {
  if (!lastSeenAt) return 'Ainda não entrou';
  const relative = formatRelativeTime(lastSeenAt, now);
  return relative === 'agora' ? 'Visto por último agora' : `Visto por último ${relative}`;
}

/**
 * One person of the team: name, username, e-mail, role, whether active, when last seen; for the
 * others' rows (not the owner's, not one's own), the role to change, 'Desativar' / 'Reativar', and
 * 'Redefinir 2FA' where the member signs in with a second factor.
 */
export function MemberRow({
  member,
  isSelf,
  now,
  canChange,
  busy,
  onRoleChange,
  onDeactivate,
  onReactivate,
  onResetTwoFactor,
}: {
  member: TeamMember;
  /** The signed-in person's own row. */
  isSelf: boolean;
  now: number;
  /** Whether the signed-in account may change members now (a demo account may not). */
  canChange: boolean;
  /** What is being saved for this member, if anything. */
  busy: 'role' | 'active' | 'twoFactor' | null;
  onRoleChange: (role: MemberRole) => void;
  onDeactivate: () => void;
  onReactivate: () => void;
  onResetTwoFactor: () => void;
}) {
  const roleId = useId();
  const editable = member.role !== 'owner' && !isSelf;
  const seen = member.lastSeenAt ? formatDateTime(member.lastSeenAt) : undefined;
  return (
    <div
      className={cn('flex flex-col gap-3 px-4 py-4 md:flex-row md:items-center', !member.isActive && 'bg-muted/40')}
      data-testid="team-member"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Avatar name={member.name} className={member.isActive ? undefined : 'bg-zinc-200 text-zinc-700'} />
        <div className="grid min-w-0 flex-1 gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <span className="min-w-0 truncate font-medium">{member.name}</span>
            {isSelf ? <span className="text-sm text-muted-foreground">(você)</span> : null}
            <Badge tone={ROLE_BADGE_TONES[member.role]} data-testid="member-role">
              {TEAM_ROLE_LABELS[member.role]}
            </Badge>
            <Badge tone={member.isActive ? 'green' : 'red'} data-testid="member-status">
              {member.isActive ? 'Ativo' : 'Inativo'}
            </Badge>
            {member.twoFactor ? (
              <Badge tone="outline" title={twoFactorMsg.title} data-testid="member-two-factor">
                <ShieldCheck aria-hidden />
                2FA<span className="sr-only">: {twoFactorMsg.title.toLowerCase()} ativa</span>
              </Badge>
            ) : null}
          </div>
          <p className="flex min-w-0 flex-wrap gap-x-3 gap-y-0.5 text-sm text-muted-foreground">
            <span className="min-w-0 truncate">@{member.username}</span>
            <span className="min-w-0 break-all">{member.email}</span>
          </p>
          <p className="text-xs text-muted-foreground" title={seen}>
            {lastSeenText(member.lastSeenAt, now)}
          </p>
        </div>
      </div>

      {editable ? (
        <div className="flex flex-col gap-2 min-[420px]:flex-row min-[420px]:items-end md:shrink-0">
          <div className="grid gap-1.5 min-[420px]:w-44">
            <Label htmlFor={roleId} className="text-xs text-muted-foreground">
              Papel<span className="sr-only"> de {member.name}</span>
            </Label>
            <NativeSelect
              id={roleId}
              value={member.role}
              disabled={!canChange || busy !== null}
              aria-busy={busy === 'role' || undefined}
              onChange={(e) => onRoleChange(e.target.value as MemberRole)}
            >
              <LabelledOptions values={memberRoles} labels={TEAM_ROLE_LABELS} />
            </NativeSelect>
          </div>
          {member.twoFactor ? (
            <PermissionGatedButton
              variant="outline"
              icon={busy === 'twoFactor' ? <Spinner /> : <ShieldOff aria-hidden />}
              disabled={busy !== null}
              onClick={onResetTwoFactor}
            >
              {teamMsg.resetTwoFactor}
              <span className="sr-only"> de {member.name}</span>
            </PermissionGatedButton>
          ) : null}
          {member.isActive ? (
            <PermissionGatedButton
              variant="outline"
              className="text-red-700 hover:bg-red-50"
              icon={busy === 'active' ? <Spinner /> : <UserRoundX aria-hidden />}
              disabled={busy !== null}
              onClick={onDeactivate}
            >
              {teamMsg.deactivate}
              <span className="sr-only"> {member.name}</span>
            </PermissionGatedButton>
          ) : (
            <PermissionGatedButton
              variant="outline"
              icon={busy === 'active' ? <Spinner /> : <UserRoundCheck aria-hidden />}
              disabled={busy !== null}
              onClick={onReactivate}
            >
              {teamMsg.activate}
              <span className="sr-only"> {member.name}</span>
            </PermissionGatedButton>
          )}
        </div>
      ) : null}
    </div>
  );
}
