import { BarChart3, Bot, LayoutDashboard, ShieldCheck, Webhook } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { PageSkeleton } from '#web/components/page-skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { ChatbotPanel } from '#web/features/chatbot/components/chatbot-panel';
import { CloudApiPanel } from '#web/features/connections/components/cloud-api-panel';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { teamAllows } from '#web/lib/auth/permissions';
import { useTabParam } from '#web/lib/use-tab-param';
import { OverviewTab } from './overview-tab';
import { VerificationPanel } from './verification-panel';

// The charts library loads only when the Analytics tab opens.
const AnalyticsTab = lazy(() => import('./analytics-tab'));

const TABS = [
  { value: 'overview', label: 'Visão Geral', icon: LayoutDashboard, forAgents: true },
  { value: 'chatbot', label: 'Chatbot', icon: Bot, forAgents: false },
  { value: 'whatsapp-api', label: 'API WhatsApp', icon: Webhook, forAgents: false },
  { value: 'analytics', label: 'Analytics', icon: BarChart3, forAgents: true },
  { value: 'verification', label: 'Verificação', icon: ShieldCheck, forAgents: false },
] as const;

/**
 * /dashboard: the selected tab lives in ?tab= so it survives a reload and can be linked. An agent
 * sees the overview and the charts: the bot, the Cloud API and the verification are the managers'.
 */
export default function DashboardPage() {
  const user = useAuthenticatedUser();
  const tabs = teamAllows(user, 'manager') ? TABS : TABS.filter((t) => t.forAgents);
  const [tab, selectTab] = useTabParam(tabs);

  return (
    <Tabs value={tab} onValueChange={selectTab} className="min-w-0">
      <TabsList aria-label="Seções do dashboard" className="w-full sm:w-auto">
        {tabs.map(({ value, label, icon: Icon }) => (
          <TabsTrigger key={value} value={value}>
            <Icon aria-hidden />
            {label}
          </TabsTrigger>
        ))}
      </TabsList>

      <TabsContent value="overview" className="mt-6">
        <OverviewTab user={user} />
      </TabsContent>
      <TabsContent value="chatbot" className="mt-6">
        <ChatbotPanel />
      </TabsContent>
      <TabsContent value="whatsapp-api" className="mt-6">
        <CloudApiPanel />
      </TabsContent>
      <TabsContent value="analytics" className="mt-6">
        <Suspense fallback={<PageSkeleton />}>
          <AnalyticsTab />
        </Suspense>
      </TabsContent>
      <TabsContent value="verification" className="mt-6">
        <VerificationPanel />
      </TabsContent>
    </Tabs>
  );
}
