import { roleOf, type TeamRole } from '#contract/auth';
import { useProductName, useSupportWhatsappLink } from '../public-config';
import { useAuthenticatedUser, useUser } from './get-me';
import { type ActionKind, type ActionPermission, actionPermission, teamAllows } from './permissions';

export type CanAct = ActionPermission & {
  /** wa.me link asking the provider to approve (or reactivate) this account; null until the config loads. */
  approvalLink: string | null;
};

/**
 * Whether the signed-in user may run an action of this kind right now, by role (admin, customer,
 * demo, pending, inactive), on any screen width. Use <PermissionGatedButton> for the usual rendering.
 */
export function useCanAct(kind: ActionKind = 'other'): CanAct {
  const user = useAuthenticatedUser();
  const approvalLink = useApprovalLink();
  return { ...actionPermission(user, kind), approvalLink };
}

/**
 * Whether the signed-in person's team role reaches `least` (owner > manager > agent): what an
 * agent may not use is not shown to them at all. False while signed out.
 */
export function useTeamAllows(least: TeamRole): boolean {
  const { user } = useUser();
  return user !== null && teamAllows(user, least);
}

/** The WhatsApp message a pending or deactivated user sends the provider, with their e-mail. */
export function useApprovalLink(): string | null {
  const user = useAuthenticatedUser();
  const product = useProductName();
  const text =
    roleOf(user) === 'inactive'
      ? `Olá! Minha conta no ${product} está desativada e gostaria de reativá-la. Meu e-mail: ${user.email}`
      : `Olá! Gostaria de solicitar a aprovação da minha conta no ${product}. Meu e-mail: ${user.email}`;
  return useSupportWhatsappLink(text);
}

/** WhatsApp chat with the provider's support, identifying the user by e-mail. */
export function useSupportLink(): string | null {
  const user = useAuthenticatedUser();
  const product = useProductName();
  return useSupportWhatsappLink(`Olá! Preciso de ajuda com o ${product}. Meu e-mail: ${user.email}`);
}
