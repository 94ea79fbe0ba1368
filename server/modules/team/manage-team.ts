import {
  type AcceptInvitationInput,
  type CreateInvitationInput,
  INVITATION_HOURS,
  TEAM_ROLE_LABELS,
  type TeamInvitation,
  type TeamMember,
  type UpdateMemberInput,
} from '../../../contract/team';
import type { AppDeps } from '../../deps';
import { mailTemplates } from '../../mail/templates';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import {
  acceptInvitation,
  accountNameOf,
  describeMemberChange,
  inviteMember,
  resetMemberTwoFactor,
  revokeInvitation,
  setRequireTwoFactor,
  updateMember,
} from './team.service';

/** The team's use cases: each change, the e-mail it sends, and its line in the activity log (naming who acted). */
type TeamDeps = Recording & Pick<AppDeps, 'sessions' | 'mail' | 'config'>;

const role = (r: keyof typeof TEAM_ROLE_LABELS) => TEAM_ROLE_LABELS[r].toLowerCase();

/** Invites by e-mail; answers the link too, so the inviter may also send it another way. */
export async function sendInvitation(
  deps: TeamDeps,
  ctx: AccountContext,
  input: CreateInvitationInput,
): Promise<{ invitation: TeamInvitation; url: string; emailed: boolean }> {
  const { invitation, token } = await inviteMember(deps.db, ctx, input);
  const { mailer } = deps.mail;
  const url = mailer.link(`/convite?token=${encodeURIComponent(token)}`);
  mailer.sendLater('team_invitation', async () => ({
    to: invitation.email,
    ...mailTemplates.teamInvitation({
      product: deps.config.PRODUCT_NAME,
      name: invitation.name,
      inviter: ctx.member.name,
      accountName: accountNameOf(ctx.user),
      role: TEAM_ROLE_LABELS[invitation.role],
      url,
      hours: INVITATION_HOURS,
    }),
  }));
  const detail = `Convite enviado a ${invitation.name} <${invitation.email}> (${role(invitation.role)})`;
  await record(deps.db, { kind: 'team_changed', by: ctx, detail }, deps);
  return { invitation, url, emailed: mailer.available };
}

export async function cancelInvitation(deps: Recording, ctx: AccountContext, id: string): Promise<void> {
  const row = await revokeInvitation(deps.db, ctx, id);
  await record(
    deps.db,
    { kind: 'team_changed', by: ctx, detail: `Convite de ${row.name} <${row.email}> cancelado` },
    deps,
  );
}

export async function changeMember(
  deps: TeamDeps,
  ctx: AccountContext,
  id: string,
  input: UpdateMemberInput,
): Promise<TeamMember> {
  const { member, before } = await updateMember(deps.db, deps.sessions, ctx, id, input);
  await record(
    deps.db,
    { kind: 'team_changed', by: ctx, detail: describeMemberChange(before, member, input.queueIds !== undefined) },
    deps,
  );
  return member;
}

/** A member lost their phone: their second factor is taken away, they are told by e-mail, and the log says who did it. */
export async function resetTwoFactorOf(deps: TeamDeps, ctx: AccountContext, id: string): Promise<TeamMember> {
  const member = await resetMemberTwoFactor(deps.db, deps.sessions, ctx, id);
  const { mailer } = deps.mail;
  mailer.sendLater('two_factor_reset', async () => ({
    to: member.email,
    ...mailTemplates.twoFactorReset({
      product: deps.config.PRODUCT_NAME,
      name: member.name,
      by: ctx.member.name,
      accountName: accountNameOf(ctx.user),
      loginUrl: mailer.link('/login'),
    }),
  }));
  await record(
    deps.db,
    { kind: 'team_changed', by: ctx, detail: `${member.name} — verificação em duas etapas redefinida` },
    deps,
  );
  return member;
}

/** The owner requires (or stops requiring) two-factor sign-in of the whole team. */
export async function changeTeamSettings(deps: TeamDeps, ctx: AccountContext, requireTwoFactor: boolean) {
  await setRequireTwoFactor(deps.db, deps.sessions, ctx, requireTwoFactor);
  await record(
    deps.db,
    { kind: 'settings_changed', by: ctx, section: requireTwoFactor ? 'twoFactorRequired' : 'twoFactorOptional' },
    deps,
  );
}

/** Accepts an invitation: the member's login is made, and the log says who joined. */
export async function joinTeam(deps: Recording, input: AcceptInvitationInput): Promise<void> {
  const { member, account } = await acceptInvitation(deps.db, input);
  await record(
    deps.db,
    { kind: 'team_changed', by: { userId: account.id, actorId: member.id }, detail: `${member.name} entrou na equipe` },
    deps,
  );
}
