import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { FullPageLoader } from '#web/components/states';
import { sessionEndReason } from '#web/features/auth/session-end';
import { useUser } from '#web/lib/auth/get-me';
import { paths } from '#web/lib/paths';

/** Shows 'Carregando...' until the session is known, then the matched route. */
export function SessionBoundary() {
  const { isLoading } = useUser();
  return isLoading ? <FullPageLoader /> : <Outlet />;
}

/** Authenticated routes: logged out → /login (with the expiry notice after a demo ends). */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { user } = useUser();
  if (!user) return <Navigate to={sessionEndReason() === 'expired' ? paths.loginExpired : paths.login} replace />;
  return children ?? <Outlet />;
}

/** /admin/users: anyone but an admin goes to the dashboard. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useUser();
  if (user?.accountType !== 'admin') return <Navigate to={paths.dashboard} replace />;
  return children;
}

/** /login: a signed-in user goes to the dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { user } = useUser();
  if (user) return <Navigate to={paths.dashboard} replace />;
  return children;
}

/** '/' and unknown paths: one screen for signed-in users, another for visitors. */
export function SessionSwitch({ signedIn, visitor }: { signedIn: ReactNode; visitor: ReactNode }) {
  const { user } = useUser();
  return user ? signedIn : visitor;
}
