import { type Role, roleOf, type TeamRole, type User } from '#contract/auth';
import { msg } from '#contract/messages';
import { hasTeamRole } from '#contract/team';

/**
 * Kinds of action buttons. SPEC §4 restricted message, bot and campaign actions to the desktop for
 * non-admins; we depart from it (docs/decisions/025-working-from-a-phone.md): every kind follows
 * the role rules alone, on any screen. The kind stays on each button so that a rule for one kind
 * has this one home.
 */
export type ActionKind = 'message' | 'bot' | 'campaign' | 'other';

export type ActionPermission =
  /** The action may run. */
  | { state: 'allowed'; role: Role }
  /** Pending or deactivated account: the button becomes 'Solicitar Aprovação' (WhatsApp to the provider). */
  | { state: 'request-approval'; role: Role; hint: string }
  /** Demo account: the button shows but is disabled, with a hint. */
  | { state: 'disabled'; role: Role; reason: 'demo'; hint: string };

export const REQUEST_APPROVAL_LABEL = 'Solicitar Aprovação';

/**
 * Pure rule behind useCanAct: the role (SPEC §6). The screen's width plays no part: SPEC §4's
 * 'Disponível apenas no desktop' is not applied (docs/decisions/025-working-from-a-phone.md).
 */
export function actionPermission(user: Pick<User, 'accountType' | 'isActive'>, _kind: ActionKind): ActionPermission {
  const role = roleOf(user);
  switch (role) {
    case 'admin':
      return { state: 'allowed', role };
    case 'pending':
      return { state: 'request-approval', role, hint: msg.roles.pendingRestricted };
    case 'inactive':
      return { state: 'request-approval', role, hint: msg.roles.inactiveRestricted };
    case 'demo':
      return { state: 'disabled', role, reason: 'demo', hint: msg.roles.demoReadOnly };
    case 'customer':
      return { state: 'allowed', role };
  }
}

/** Whether the account may read its workspace data at all (pending/deactivated get 403 from the API). */
export function canReadWorkspace(user: Pick<User, 'accountType' | 'isActive'>): boolean {
  const role = roleOf(user);
  return role !== 'pending' && role !== 'inactive';
}

/** The signed-in person's role in the account's team (contract/team.ts); the owner's when the session names none. */
export function userTeamRole(user: Pick<User, 'teamRole'>): TeamRole {
  return user.teamRole ?? 'owner';
}

/**
 * Whether the person's team role is at least `least`: the rule every API route declares
 * (server/plugins/access.ts, `team`), so the app neither shows what the server would refuse nor asks
 * for it. Routes an agent may call say so; the rest are for managers and the owner.
 */
export function teamAllows(user: Pick<User, 'teamRole'>, least: TeamRole): boolean {
  return hasTeamRole(userTeamRole(user), least);
}

/**
 * Whether the account may read a workspace route whose least team role is `least` right now: not a
 * pending or deactivated account, and a team role that reaches it. Queries pass it as `enabled`.
 */
export function canReadAs(user: Pick<User, 'accountType' | 'isActive' | 'teamRole'>, least: TeamRole): boolean {
  return canReadWorkspace(user) && teamAllows(user, least);
}
