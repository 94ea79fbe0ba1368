import { useRef, useState } from 'react';
import { roleOf, type User } from '#contract/auth';
import { LockedCard } from '#web/components/locked-state';
import { useCampaigns } from '#web/features/campaigns/api/get-campaigns';
import { ChooseNumberDialog } from '#web/features/connections/components/choose-number-dialog';
import { ConnectWhatsappDialog } from '#web/features/connections/components/connect-whatsapp-dialog';
import { ConnectionStatusCard, WHATSAPP_CARD_ID } from '#web/features/connections/components/connection-status-card';
import { ComposeMessageDialog } from '#web/features/messages/components/compose-message-dialog';
import { canReadWorkspace, teamAllows } from '#web/lib/auth/permissions';
import { useMetrics } from '#web/lib/metrics/get-metrics';
import { useConnections } from '#web/lib/queries/connections';
import { connectionView, useWhatsappSession } from '#web/lib/queries/get-whatsapp-session';
import { BotPerformanceCard } from './bot-performance-card';
import { MetricCards } from './metric-cards';
import { RecentCampaignsCard } from './recent-campaigns-card';
import { QuickLinksCard, SupportCard, UpgradeCard } from './side-cards';
import { WelcomeBanner } from './welcome-banner';
import { whatsappQuickAction } from './whatsapp-quick-action';

export function OverviewTab({ user }: { user: User }) {
  // Pending and deactivated accounts get 403 on workspace data: don't ask, show one locked card instead.
  const readable = canReadWorkspace(user);
  const metrics = useMetrics(readable);
  const campaigns = useCampaigns(readable);
  const [composeOpen, setComposeOpen] = useState(false);
  const whatsappHeading = useRef<HTMLHeadingElement>(null);
  const session = useWhatsappSession();
  const [connectOpen, setConnectOpen] = useState(false);
  const connections = useConnections();
  const [choosing, setChoosing] = useState(false);

  // 'Conectar WhatsApp' (shown while disconnected; once connected the number and 'Desconectar' take
  // its place) opens the pairing dialog; an account that may not connect is led to the card.
  const goToWhatsappCard = () => {
    if (readable && connectionView(session.data) === 'offline') {
      setConnectOpen(true);
      return;
    }
    document.getElementById(WHATSAPP_CARD_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    whatsappHeading.current?.focus({ preventScroll: true });
  };

  const banner = (
    <WelcomeBanner
      user={user}
      whatsapp={whatsappQuickAction(session.data, readable ? connections.data?.connections : undefined)}
      onConnectWhatsapp={goToWhatsappCard}
      onChooseNumber={() => setChoosing(true)}
      onComposeMessage={() => setComposeOpen(true)}
    />
  );

  if (!readable) {
    return (
      <div className="grid grid-cols-1 gap-6">
        {banner}
        <LockedCard />
        <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
          <QuickLinksCard />
          <SupportCard />
        </div>
      </div>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      {banner}

      <section aria-label="Métricas principais">
        <MetricCards query={metrics} />
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <RecentCampaignsCard query={campaigns} />
        </div>
        <div className="min-w-0">
          <ConnectionStatusCard headingRef={whatsappHeading} onConnect={() => setConnectOpen(true)} />
        </div>
      </div>

      <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
        <BotPerformanceCard query={metrics} />
        <QuickLinksCard />
        <div className="grid content-start gap-6 md:col-span-2 md:grid-cols-2 lg:col-span-1 lg:grid-cols-1">
          {/* The plan is the account's: not an agent's business. */}
          {roleOf(user) === 'customer' && teamAllows(user, 'manager') ? <UpgradeCard /> : null}
          <SupportCard />
        </div>
      </div>

      <ComposeMessageDialog open={composeOpen} onOpenChange={setComposeOpen} />
      <ConnectWhatsappDialog open={connectOpen} onOpenChange={setConnectOpen} />
      <ChooseNumberDialog open={choosing} onOpenChange={setChoosing} />
    </div>
  );
}
