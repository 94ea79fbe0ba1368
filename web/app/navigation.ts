import {
  BarChart3,
  Bot,
  IdCardLanyard,
  Inbox,
  LayoutDashboard,
  type LucideIcon,
  Megaphone,
  MessagesSquare,
  Settings,
  ShieldCheck,
  Smartphone,
  UserRound,
  UsersRound,
} from 'lucide-react';
import type { TeamRole, User } from '#contract/auth';
import { teamAllows } from '#web/lib/auth/permissions';
import { paths } from '#web/lib/paths';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  adminOnly?: boolean;
  /**
   * The least team role that opens the page (its routes' rule, server/plugins/access.ts): the entry
   * is not in a lower role's menu, and the dashboard layout sends them from its path to the dashboard.
   * Everyone when absent.
   */
  team?: TeamRole;
  /** Not in an administrator's menu: an administrator's account has no team. */
  noAdmin?: boolean;
}

/** The authenticated menu (SPEC §2), in order. The label is also the page title. */
export const navItems: readonly NavItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.connections, label: 'Números', icon: Smartphone, team: 'manager' },
  { to: paths.campaigns, label: 'Campanhas', icon: Megaphone },
  { to: paths.chatbot, label: 'Chatbot', icon: Bot, team: 'manager' },
  { to: paths.conversations, label: 'Conversas', icon: MessagesSquare },
  { to: paths.queues, label: 'Filas', icon: Inbox },
  { to: paths.contacts, label: 'Contatos', icon: UserRound },
  { to: paths.groups, label: 'Grupos', icon: UsersRound },
  { to: paths.reports, label: 'Relatórios', icon: BarChart3 },
  { to: paths.team, label: 'Equipe', icon: IdCardLanyard, team: 'manager', noAdmin: true },
  { to: paths.settings, label: 'Configurações', icon: Settings },
  { to: paths.adminUsers, label: 'Usuários', icon: ShieldCheck, adminOnly: true },
];

/** The entries `user` sees: by account type and by team role. */
export function visibleNavItems(user: Pick<User, 'accountType' | 'teamRole'>): NavItem[] {
  const admin = user.accountType === 'admin';
  return navItems.filter(
    (item) => (!item.adminOnly || admin) && !(item.noAdmin && admin) && (!item.team || teamAllows(user, item.team)),
  );
}

/** The menu entry a path belongs to; '/' and unknown paths show the dashboard. */
export function activeNavItem(pathname: string): NavItem {
  const clean = pathname.replace(/\/+$/, '') || '/';
  return navItems.find((item) => clean === item.to || clean.startsWith(`${item.to}/`)) ?? navItems[0];
}
