import { BarChart3, Bot, LayoutDashboard, ShieldCheck, Webhook } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { PageSkeleton } from '#web/components/page-skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { ChatbotPanel } from '#web/features/chatbot/components/chatbot-panel';
import { CloudApiPanel } from '#web/features/connections/components/cloud-api-panel';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { useTabParam } from '#web/lib/use-tab-param';
import { OverviewTab } from './overview-tab';
import { VerificationPanel } from './verification-panel';

// The charts library loads only when the Analytics tab opens.
const AnalyticsTab = lazy(() => import('./analytics-tab'));

const TABS = [
  { value: 'overview', label: 'Visão Geral', icon: LayoutDashboard },
  { value: 'chatbot', label: 'Chatbot', icon: Bot },
  { value: 'whatsapp-api', label: 'API WhatsApp', icon: Webhook },
  { value: 'analytics', label: 'Analytics', icon: BarChart3 },
  { value: 'verification', label: 'Verificação', icon: ShieldCheck },
] as const;

/** /dashboard: the selected tab lives in ?tab= so it survives a reload and can be linked. */
export default function DashboardPage() {
  const user = useAuthenticatedUser();
  const [tab, selectTab] = useTabParam(TABS);

  return (
    <Tabs value={tab} onValueChange={selectTab} className="min-w-0">
      <TabsList aria-label="Seções do dashboard" className="w-full sm:w-auto">
        {TABS.map(({ value, label, icon: Icon }) => (
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
