import { type ReactNode, Suspense, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { roleOf, type User } from '#contract/auth';
import { twoFactorMsg } from '#contract/two-factor';
import { PageSkeleton } from '#web/components/page-skeleton';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '#web/components/ui/sheet';
import { AccountNotice } from '#web/features/auth/components/account-notice';
import { DemoBanner } from '#web/features/auth/components/demo-banner';
import { NewCampaignProvider } from '#web/features/campaigns/components/new-campaign-provider';
import { usePurchaseNotice } from '#web/features/demo/components/purchase-notice';
import { useUser } from '#web/lib/auth/get-me';
import { teamAllows } from '#web/lib/auth/permissions';
import { paths } from '#web/lib/paths';
import { useIsMobile } from '#web/lib/use-media-query';
import { usePageTitle } from '#web/lib/use-page-title';
import { activeNavItem } from '../navigation';
import { AppHeader } from './dashboard/app-header';
import { SidebarNav } from './dashboard/sidebar-nav';
import { TwoFactorSetupRequiredPage } from './two-factor-setup-required';

/**
 * Authenticated shell: sidebar from 1024 px, a slide-out drawer below it,
 * header, and the account banners (demo countdown, pending, deactivated).
 * Renders `children` when given (for '/' and unknown paths), else the route's outlet. A page the
 * person's team role may not open (its menu entry's `team`: Números, Chatbot, Equipe for an agent)
 * is not rendered: they go to the dashboard, as the server would refuse every call it makes. A login
 * held to set up two-factor sign-in sees that setup alone (`TwoFactorSetupRequiredPage`).
 */
export function DashboardLayout({ children }: { children?: ReactNode }) {
  // Signing out clears the cache before the route guard has moved on: for that one render, nothing.
  const { user } = useUser();
  return user ? <SignedInShell user={user}>{children}</SignedInShell> : null;
}

function SignedInShell({ user, children }: { user: User; children?: ReactNode }) {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const isMobile = useIsMobile();
  const page = activeNavItem(pathname);
  const title = page.label;
  const role = roleOf(user);
  // The account requires two-factor sign-in and this login has not set it up: only its setup, with no
  // menu, header figures, notifications or page, whose calls the server would all refuse.
  const heldToSetup = user.twoFactorSetupRequired === true;
  usePageTitle(heldToSetup ? twoFactorMsg.title : title);
  usePurchaseNotice(role === 'demo' && !heldToSetup);
  if (heldToSetup) return <TwoFactorSetupRequiredPage />;
  if (page.team && !teamAllows(user, page.team)) return <Navigate to={paths.dashboard} replace />;

  return (
    <NewCampaignProvider>
      <div className="min-h-dvh">
        <a
          href="#conteudo"
          className="sr-only z-50 rounded-md bg-card px-4 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Pular para o conteúdo
        </a>

        <aside className="fixed inset-y-0 left-0 z-40 hidden w-64 border-r bg-card lg:block" aria-label="Barra lateral">
          <SidebarNav user={user} />
        </aside>

        <Sheet open={menuOpen && isMobile} onOpenChange={setMenuOpen}>
          <SheetContent>
            <SheetTitle className="sr-only">Menu</SheetTitle>
            <SheetDescription className="sr-only">Navegue pelas seções do painel.</SheetDescription>
            <SidebarNav user={user} onNavigate={() => setMenuOpen(false)} />
          </SheetContent>
        </Sheet>

        <div className="flex min-h-dvh min-w-0 flex-col lg:pl-64">
          <AppHeader user={user} title={title} onOpenMenu={() => setMenuOpen(true)} />
          {role === 'demo' ? <DemoBanner user={user} /> : null}
          <AccountNotice user={user} />
          <main
            id="conteudo"
            tabIndex={-1}
            className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-6 focus-visible:outline-none sm:px-6 lg:px-8 lg:py-8"
          >
            <Suspense fallback={<PageSkeleton />}>{children ?? <Outlet />}</Suspense>
          </main>
        </div>
      </div>
    </NewCampaignProvider>
  );
}
