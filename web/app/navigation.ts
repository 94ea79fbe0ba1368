import {
  BarChart3,
  Bot,
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
import { paths } from '#web/lib/paths';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  adminOnly?: boolean;
}

/** The authenticated menu (SPEC §2), in order. The label is also the page title. */
export const navItems: readonly NavItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.connections, label: 'Números', icon: Smartphone },
  { to: paths.campaigns, label: 'Campanhas', icon: Megaphone },
  { to: paths.chatbot, label: 'Chatbot', icon: Bot },
  { to: paths.conversations, label: 'Conversas', icon: MessagesSquare },
  { to: paths.contacts, label: 'Contatos', icon: UserRound },
  { to: paths.groups, label: 'Grupos', icon: UsersRound },
  { to: paths.reports, label: 'Relatórios', icon: BarChart3 },
  { to: paths.settings, label: 'Configurações', icon: Settings },
  { to: paths.adminUsers, label: 'Usuários', icon: ShieldCheck, adminOnly: true },
];

/** The menu entry a path belongs to; '/' and unknown paths show the dashboard. */
export function activeNavItem(pathname: string): NavItem {
  const clean = pathname.replace(/\/+$/, '') || '/';
  return navItems.find((item) => clean === item.to || clean.startsWith(`${item.to}/`)) ?? navItems[0];
}
