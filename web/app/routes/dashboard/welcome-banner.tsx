import { Bot, Megaphone, MessageSquare, MessagesSquare, Smartphone, Unplug, UserRound } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { roleOf, type User } from '#contract/auth';
import { planLabel } from '#contract/plans';
import { TEAM_ROLE_LABELS } from '#contract/team';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { useNewCampaign } from '#web/features/campaigns/components/new-campaign-provider';
import { DisconnectWhatsappButton } from '#web/features/connections/components/disconnect-dialog';
import { userTeamRole } from '#web/lib/auth/permissions';
import { firstName } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { useProductName } from '#web/lib/public-config';
import type { WhatsappQuickAction } from './whatsapp-quick-action';

export function WelcomeBanner({
  user,
  whatsapp,
  onConnectWhatsapp,
  onChooseNumber,
  onComposeMessage,
}: {
  user: User;
  whatsapp: WhatsappQuickAction;
  onConnectWhatsapp: () => void;
  /** With several numbers: opens the choice of the number to connect or disconnect. */
  onChooseNumber: () => void;
  onComposeMessage: () => void;
}) {
  const product = useProductName();
  const navigate = useNavigate();
  const { openNewCampaign } = useNewCampaign();
  const isDemo = roleOf(user) === 'demo';
  const teamRole = userTeamRole(user);

  return (
    <section
      aria-labelledby="welcome-title"
      className="overflow-hidden rounded-lg border bg-gradient-to-br from-brand-soft via-card to-card p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="grid gap-2">
          <h2 id="welcome-title" className="text-xl font-semibold tracking-tight sm:text-2xl">
            {isDemo ? `Bem-vindo ao ${product} Demo!` : `Olá, ${firstName(user.name)}!`}
          </h2>
          <p className="text-sm text-muted-foreground sm:text-base">
            {isDemo
              ? 'Explore o painel à vontade: nesta demonstração as ações ficam desativadas.'
              : user.accountName
                ? `Você está na equipe de ${user.accountName} como ${TEAM_ROLE_LABELS[teamRole].toLowerCase()}.`
                : 'Acompanhe suas campanhas, seus contatos e o chatbot em um só lugar.'}
          </p>
        </div>
        <Badge tone="brand" className="self-start px-3 py-1 text-sm">
          {planLabel(user.planType)}
        </Badge>
      </div>

      <div className="mt-5 grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 lg:grid-cols-4">
        {whatsapp.kind === 'choose' ? (
          <PermissionGatedButton
            variant="outline"
            className="w-full justify-start"
            icon={<Smartphone aria-hidden />}
            onClick={onChooseNumber}
            aria-haspopup="dialog"
            data-testid="whatsapp-quick-action"
          >
            <span className="truncate">
              WhatsApp: {whatsapp.connected} de {whatsapp.total} conectados
            </span>
          </PermissionGatedButton>
        ) : whatsapp.kind === 'connect' ? (
          <PermissionGatedButton
            variant="outline"
            className="w-full justify-start"
            icon={<Smartphone aria-hidden />}
            onClick={onConnectWhatsapp}
          >
            Conectar WhatsApp
          </PermissionGatedButton>
        ) : (
          <div
            data-testid="whatsapp-quick-action"
            className="flex h-10 min-w-0 items-center gap-2 rounded-md border border-brand-strong/40 bg-card pr-1 pl-3 shadow-sm"
          >
            <Smartphone aria-hidden className="size-4 shrink-0 text-brand-strong" />
            <span className="min-w-0 flex-1 truncate text-sm font-medium tabular-nums">
              <span className="sr-only">WhatsApp conectado: </span>
              {whatsapp.label}
            </span>
            {/* Icon only where four actions share a narrow row; always named 'Desconectar'. */}
            <DisconnectWhatsappButton
              variant="ghost"
              size="sm"
              className="h-8 px-2"
              icon={<Unplug aria-hidden />}
              labelClassName="min-[420px]:max-2xl:sr-only"
            />
          </div>
        )}
        <PermissionGatedButton
          kind="message"
          variant="outline"
          className="w-full justify-start"
          icon={<MessageSquare aria-hidden />}
          onClick={onComposeMessage}
        >
          Mensagem
        </PermissionGatedButton>
        <PermissionGatedButton
          kind="bot"
          variant="outline"
          className="w-full justify-start"
          icon={<Bot aria-hidden />}
          onClick={() => navigate(paths.chatbot)}
        >
          Configurar Bot
        </PermissionGatedButton>
        <PermissionGatedButton
          kind="campaign"
          className="w-full justify-start"
          icon={<Megaphone aria-hidden />}
          onClick={openNewCampaign}
        >
          Nova Campanha
        </PermissionGatedButton>
        {teamRole === 'agent' ? (
          <>
            <Button asChild variant="outline" className="w-full justify-start">
              <Link to={paths.conversations}>
                <MessagesSquare aria-hidden />
                Conversas
              </Link>
            </Button>
            <Button asChild variant="outline" className="w-full justify-start">
              <Link to={paths.contacts}>
                <UserRound aria-hidden />
                Contatos
              </Link>
            </Button>
          </>
        ) : null}
      </div>
    </section>
  );
}
