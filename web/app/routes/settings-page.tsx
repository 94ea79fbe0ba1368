import { Bell, CreditCard, MessageCircle, ShieldCheck, UserRound } from 'lucide-react';
import { roleOf } from '#contract/auth';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { RestoreBackupCard } from '#web/features/backup/components/restore-backup-card';
import { QuickRepliesCard } from '#web/features/quick-replies/components/quick-replies-card';
import { NotificationsSection } from '#web/features/settings/components/notifications-section';
import { PlansSection } from '#web/features/settings/components/plans-section';
import { ProfileSection } from '#web/features/settings/components/profile-section';
import { SecuritySection } from '#web/features/settings/components/security-section';
import { TwoFactorCard } from '#web/features/settings/components/two-factor-card';
import { WhatsappSection } from '#web/features/settings/components/whatsapp-section';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace, teamAllows } from '#web/lib/auth/permissions';
import { useTabParam } from '#web/lib/use-tab-param';
import { SettingsNumbersCard } from './settings-numbers-card';

const TABS = [
  { value: 'perfil', label: 'Perfil', icon: UserRound, forAgents: true },
  { value: 'notificacoes', label: 'Notificações', icon: Bell, forAgents: false },
  { value: 'whatsapp', label: 'WhatsApp', icon: MessageCircle, forAgents: false },
  { value: 'seguranca', label: 'Segurança', icon: ShieldCheck, forAgents: true },
  { value: 'planos', label: 'Planos', icon: CreditCard, forAgents: false },
] as const;

/**
 * /settings: profile, notifications, WhatsApp sending, password and two-factor sign-in, and plans; the tab lives in ?tab=.
 * An agent has their own profile and password only (the rest is the account's, the managers'), and
 * restoring a backup is the owner's alone.
 */
export default function SettingsPage() {
  const user = useAuthenticatedUser();
  const role = roleOf(user);
  const readOnly = role === 'demo';
  const locked = !canReadWorkspace(user);
  const tabs = teamAllows(user, 'manager') ? TABS : TABS.filter((t) => t.forAgents);
  const [tab, selectTab] = useTabParam(tabs);

  return (
    <Tabs value={tab} onValueChange={selectTab} className="min-w-0">
      <TabsList aria-label="Seções das configurações" className="w-full sm:w-auto">
        {tabs.map(({ value, label, icon: Icon }) => (
          <TabsTrigger key={value} value={value}>
            <Icon aria-hidden />
            {label}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="perfil" className="mt-6 grid gap-6">
        <ProfileSection readOnly={readOnly} />
        {teamAllows(user, 'owner') ? <RestoreBackupCard readOnly={readOnly} locked={locked} /> : null}
      </TabsContent>
      <TabsContent value="notificacoes" className="mt-6">
        <NotificationsSection readOnly={readOnly} locked={locked} />
      </TabsContent>
      <TabsContent value="whatsapp" className="mt-6 grid gap-6">
        <WhatsappSection readOnly={readOnly} locked={locked} />
        <SettingsNumbersCard />
        {teamAllows(user, 'manager') ? <QuickRepliesCard /> : null}
      </TabsContent>
      <TabsContent value="seguranca" className="mt-6 grid gap-6">
        <SecuritySection readOnly={readOnly} />
        <TwoFactorCard readOnly={readOnly} />
      </TabsContent>
      <TabsContent value="planos" className="mt-6">
        <PlansSection planType={user.planType} role={role} />
      </TabsContent>
    </Tabs>
  );
}
