import { Bell, CreditCard, MessageCircle, ShieldCheck, UserRound } from 'lucide-react';
import { roleOf } from '#contract/auth';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { RestoreBackupCard } from '#web/features/backup/components/restore-backup-card';
import { NotificationsSection } from '#web/features/settings/components/notifications-section';
import { PlansSection } from '#web/features/settings/components/plans-section';
import { ProfileSection } from '#web/features/settings/components/profile-section';
import { SecuritySection } from '#web/features/settings/components/security-section';
import { WhatsappSection } from '#web/features/settings/components/whatsapp-section';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { useTabParam } from '#web/lib/use-tab-param';
import { SettingsNumbersCard } from './settings-numbers-card';

const TABS = [
  { value: 'perfil', label: 'Perfil', icon: UserRound },
  { value: 'notificacoes', label: 'Notificações', icon: Bell },
  { value: 'whatsapp', label: 'WhatsApp', icon: MessageCircle },
  { value: 'seguranca', label: 'Segurança', icon: ShieldCheck },
  { value: 'planos', label: 'Planos', icon: CreditCard },
] as const;

/** /settings: profile, notifications, WhatsApp sending, password and plans; the tab lives in ?tab=. */
export default function SettingsPage() {
  const user = useAuthenticatedUser();
  const role = roleOf(user);
  const readOnly = role === 'demo';
  const locked = !canReadWorkspace(user);
  const [tab, selectTab] = useTabParam(TABS);

  return (
    <Tabs value={tab} onValueChange={selectTab} className="min-w-0">
      <TabsList aria-label="Seções das configurações" className="w-full sm:w-auto">
        {TABS.map(({ value, label, icon: Icon }) => (
          <TabsTrigger key={value} value={value}>
            <Icon aria-hidden />
            {label}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="perfil" className="mt-6 grid gap-6">
        <ProfileSection readOnly={readOnly} />
        <RestoreBackupCard readOnly={readOnly} locked={locked} />
      </TabsContent>
      <TabsContent value="notificacoes" className="mt-6">
        <NotificationsSection readOnly={readOnly} locked={locked} />
      </TabsContent>
      <TabsContent value="whatsapp" className="mt-6 grid gap-6">
        <WhatsappSection readOnly={readOnly} locked={locked} />
        <SettingsNumbersCard />
      </TabsContent>
      <TabsContent value="seguranca" className="mt-6">
        <SecuritySection readOnly={readOnly} />
      </TabsContent>
      <TabsContent value="planos" className="mt-6">
        <PlansSection planType={user.planType} role={role} />
      </TabsContent>
    </Tabs>
  );
}
