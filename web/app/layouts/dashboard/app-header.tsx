import { Menu, Plus } from 'lucide-react';
import type { User } from '#contract/auth';
import { planLabel } from '#contract/plans';
import { TodayFigures } from '#web/components/metrics/today-figures';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Avatar } from '#web/components/ui/avatar';
import { Button } from '#web/components/ui/button';
import { useNewCampaign } from '#web/features/campaigns/components/new-campaign-provider';
import { NotificationsBell } from '#web/features/notifications/components/notifications-bell';

export function AppHeader({ user, title, onOpenMenu }: { user: User; title: string; onOpenMenu: () => void }) {
  const { openNewCampaign } = useNewCampaign();
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur supports-[backdrop-filter]:bg-card/85 sm:gap-3 sm:px-6 lg:px-8">
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Abrir menu" onClick={onOpenMenu}>
        <Menu aria-hidden className="size-5" />
      </Button>

      <h1 className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight sm:text-xl">{title}</h1>

      <TodayFigures user={user} className="hidden xl:flex" />

      <PermissionGatedButton
        kind="campaign"
        size="sm"
        className="max-sm:gap-1 max-sm:px-2.5"
        labelClassName="max-sm:sr-only"
        compactLabel="Nova"
        icon={<Plus aria-hidden />}
        onClick={openNewCampaign}
      >
        Nova Campanha
      </PermissionGatedButton>

      <NotificationsBell />

      <div className="flex items-center gap-3">
        <Avatar name={user.name} className="size-9 bg-brand-deep text-white" />
        <div className="hidden min-w-0 leading-tight md:grid" data-testid="header-user">
          <span className="max-w-40 truncate text-sm font-medium">{user.name}</span>
          <span className="text-xs text-muted-foreground">{planLabel(user.planType)}</span>
        </div>
        <span className="sr-only md:hidden">
          {user.name}, {planLabel(user.planType)}
        </span>
      </div>
    </header>
  );
}
