import { type Role, roleOf, type User } from '../../../contract/auth';
import { msg } from '../../../contract/messages';

/**
 * Kinds of action buttons. SPEC §4 restricts message, bot and campaign actions
 * to the desktop for non-admins; other writes (connecting WhatsApp, say) only
 * follow the role rules.
 */
export type ActionKind = 'message' | 'bot' | 'campaign' | 'other';

const MOBILE_RESTRICTED: ReadonlySet<ActionKind> = new Set(['message', 'bot', 'campaign']);

export type ActionPermission =
  /** The action may run. */
  | { state: 'allowed'; role: Role }
  /** Pending or deactivated account: the button becomes 'Solicitar Aprovação' (WhatsApp to the provider). */
  | { state: 'request-approval'; role: Role; hint: string }
  /** Demo account, or a non-admin under 1024 px: the button shows but is disabled, with a hint. */
  | { state: 'disabled'; role: Role; reason: 'demo' | 'mobile'; hint: string };

export const REQUEST_APPROVAL_LABEL = 'Solicitar Aprovação';

/** Pure rule behind useCanAct: role first (SPEC §6), then the mobile restriction (SPEC §4). */
export function actionPermission(
  user: Pick<User, 'accountType' | 'isActive'>,
  kind: ActionKind,
  isMobile: boolean,
): ActionPermission {
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
      if (isMobile && MOBILE_RESTRICTED.has(kind)) {
        return { state: 'disabled', role, reason: 'mobile', hint: msg.generic.mobileOnlyDesktop };
      }
      return { state: 'allowed', role };
  }
}

/** Whether the account may read its workspace data at all (pending/deactivated get 403 from the API). */
export function canReadWorkspace(user: Pick<User, 'accountType' | 'isActive'>): boolean {
  const role = roleOf(user);
  return role !== 'pending' && role !== 'inactive';
}
