import { Smartphone } from 'lucide-react';
import { Link } from 'react-router';
import { connectionsMsg } from '#contract/connections';
import { formatPhone } from '#contract/phone';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { paths } from '#web/lib/paths';
import { CONNECTION_STATUS_BADGES, useConnections } from '#web/lib/queries/connections';

/**
 * Configurações › WhatsApp: the account's numbers at a glance (how many of the plan's, which is the
 * default and its state), with the way to the 'Números' page where they are added and managed.
 */
export function SettingsNumbersCard() {
  const { data } = useConnections();
  if (!data) return null;
  const { connections, limit } = data;
  const standard = connections.find((c) => c.isDefault);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Smartphone aria-hidden className="size-5" />
          {connectionsMsg.title}
        </CardTitle>
        <CardDescription>{connectionsMsg.subtitle}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p data-testid="settings-numbers-count">
          {limit === null
            ? `${connections.length} ${connections.length === 1 ? 'número' : 'números'} (sem limite no seu plano)`
            : `${connections.length} de ${limit} ${limit === 1 ? 'número' : 'números'} do seu plano`}
        </p>
        {standard ? (
          <p>
            Padrão: <strong>{standard.label}</strong>
            {standard.phoneNumber ? ` — ${formatPhone(standard.phoneNumber)}` : ''} (
            {CONNECTION_STATUS_BADGES[standard.status].label})
          </p>
        ) : null}
        <div>
          <Button asChild variant="outline">
            <Link to={paths.connections}>Gerenciar números</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
