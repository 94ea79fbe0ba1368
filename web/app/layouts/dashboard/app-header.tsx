import { Bell, Menu, Plus } from 'lucide-react';
import type { User } from '../../../../contract/auth';
import { planLabel } from '../../../../contract/plans';
import { Button } from '../../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { PermissionGatedButton } from '../../../features/auth/components/permission-gated-button';
import { useNewCampaign } from '../../../features/campaigns/components/new-campaign-provider';
import { formatNumber, formatPercent, initials } from '../../../lib/format';

// SPEC §2: the header shows static sample figures.
const SAMPLE_FIGURES = [
  { label: 'Enviadas hoje', value: formatNumber(1247) },
  { label: 'Taxa de entrega', value: formatPercent(98.2) },
];

const NOTIFICATIONS = [
  { title: 'Bem-vindo!', text: 'Conecte seu WhatsApp para começar a enviar campanhas.' },
  { title: 'Dica', text: 'Configure o chatbot para responder seus clientes automaticamente.' },
  { title: 'Relatórios', text: 'Acompanhe entregas e respostas na página de relatórios.' },
];

export function AppHeader({ user, title, onOpenMenu }: { user: User; title: string; onOpenMenu: () => void }) {
  const { openNewCampaign } = useNewCampaign();
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur supports-[backdrop-filter]:bg-card/85 sm:gap-3 sm:px-6 lg:px-8">
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Abrir menu" onClick={onOpenMenu}>
        <Menu aria-hidden className="size-5" />
      </Button>

      <h1 className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight sm:text-xl">{title}</h1>

      <dl className="hidden items-center gap-5 xl:flex">
        {SAMPLE_FIGURES.map((f) => (
          <div key={f.label} className="text-right">
            <dt className="text-xs text-muted-foreground">{f.label}</dt>
            <dd className="text-sm font-semibold tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>

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

      <Popover>
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="relative"
            aria-label={`Notificações (${NOTIFICATIONS.length} novas)`}
          >
            <Bell aria-hidden className="size-5" />
            <span
              aria-hidden
              className="absolute top-1.5 right-1.5 flex size-4 items-center justify-center rounded-full bg-red-600 text-[10px] font-bold text-white"
            >
              {NOTIFICATIONS.length}
            </span>
          </Button>
        </PopoverTrigger>
        <PopoverContent aria-label="Notificações" className="p-0">
          <p className="border-b px-4 py-3 text-sm font-semibold">Notificações</p>
          <ul className="divide-y">
            {NOTIFICATIONS.map((n) => (
              <li key={n.title} className="grid gap-0.5 px-4 py-3">
                <span className="text-sm font-medium">{n.title}</span>
                <span className="text-sm text-muted-foreground">{n.text}</span>
              </li>
            ))}
          </ul>
        </PopoverContent>
      </Popover>

      <div className="flex items-center gap-3">
        <span
          aria-hidden
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-deep text-sm font-semibold text-white"
        >
          {initials(user.name)}
        </span>
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
