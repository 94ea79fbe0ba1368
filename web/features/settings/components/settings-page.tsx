import { Bell, CreditCard, MessageCircle, ShieldCheck, UserRound } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { roleOf } from '../../../../contract/auth';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useAuthenticatedUser } from '../../auth/api/get-me';
import { canReadWorkspace } from '../../auth/permissions';
import { NotificationsSection } from './notifications-section';
import { PlansSection } from './plans-section';
import { ProfileSection } from './profile-section';
import { SecuritySection } from './security-section';
import { WhatsappSection } from './whatsapp-section';

const TABS = [
  { value: 'perfil', label: 'Perfil', icon: UserRound },
  { value: 'notificacoes', label: 'Notificações', icon: Bell },
  { value: 'whatsapp', label: 'WhatsApp', icon: MessageCircle },
  { value: 'seguranca', label: 'Segurança', icon: ShieldCheck },
  { value: 'planos', label: 'Planos', icon: CreditCard },
] as const;

type SettingsTab = (typeof TABS)[number]['value'];
const isTab = (v: string | null): v is SettingsTab => TABS.some((t) => t.value === v);

/** /settings: profile, notifications, WhatsApp sending, password and plans; the tab lives in ?tab=. */
export default function SettingsPage() {
  const user = useAuthenticatedUser();
  const role = roleOf(user);
  const readOnly = role === 'demo';
  const locked = !canReadWorkspace(user);
  const [searchParams, setSearchParams] = useSearchParams();
  const param = searchParams.get('tab');
  const tab: SettingsTab = isTab(param) ? param : 'perfil';
  const selectTab = (next: string) =>
    setSearchParams(
      (prev) => {
        const params = new URLSearchParams(prev);
        if (next === 'perfil') params.delete('tab');
        else params.set('tab', next);
        return params;
      },
      { replace: true },
    );

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
      <TabsContent value="perfil" className="mt-6">
        <ProfileSection readOnly={readOnly} />
      </TabsContent>
      <TabsContent value="notificacoes" className="mt-6">
        <NotificationsSection readOnly={readOnly} locked={locked} />
      </TabsContent>
      <TabsContent value="whatsapp" className="mt-6">
        <WhatsappSection readOnly={readOnly} locked={locked} />
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
