import { LogOut } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import type { User } from '#contract/auth';
import { activeNavItem, visibleNavItems } from '#web/app/navigation';
import { BrandMark } from '#web/components/brand-mark';
import { Spinner } from '#web/components/ui/spinner';
import { useLogout } from '#web/features/auth/api/logout';
import { WhatsappStatusPill } from '#web/features/connections/components/whatsapp-status-pill';
import { paths } from '#web/lib/paths';
import { useProductName } from '#web/lib/public-config';
import { cn } from '#web/lib/utils';

/** Menu shared by the desktop sidebar and the mobile drawer. */
export function SidebarNav({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const product = useProductName();
  const { pathname } = useLocation();
  const active = activeNavItem(pathname);
  const logout = useLogout();
  const items = visibleNavItems(user);

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center gap-2 border-b px-5">
        <Link
          to={paths.dashboard}
          onClick={onNavigate}
          className="flex items-center gap-2 rounded-md text-lg font-semibold"
        >
          <BrandMark product={product} />
        </Link>
      </div>

      <nav aria-label="Menu principal" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="grid gap-1">
          {items.map((item) => {
            const isActive = item === active;
            return (
              <li key={item.to}>
                <Link
                  to={item.to}
                  onClick={onNavigate}
                  aria-current={isActive ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors',
                    isActive ? 'bg-brand-soft text-brand-ink' : 'text-zinc-700 hover:bg-muted hover:text-foreground',
                  )}
                >
                  <item.icon aria-hidden className={cn('size-4', isActive ? 'text-brand-strong' : 'text-zinc-500')} />
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <div className="grid gap-2 border-t p-3">
        <WhatsappStatusPill />
        <button
          type="button"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
          className="flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-zinc-700 transition-colors hover:bg-red-50 hover:text-red-700 disabled:opacity-60"
        >
          {logout.isPending ? <Spinner /> : <LogOut aria-hidden className="size-4" />}
          Sair
        </button>
      </div>
    </div>
  );
}
