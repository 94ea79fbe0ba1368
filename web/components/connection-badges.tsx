import { Pause, Star } from 'lucide-react';
import { type ConnectionView, connectionsMsg } from '#contract/connections';
import { CONNECTION_STATUS_BADGES } from '#web/lib/queries/connections';
import { Badge } from './ui/badge';

/**
 * A number's badges, wherever numbers are listed (the 'Números' page, the campaign dialog's picker,
 * the dashboard's connection card): its state, 'Padrão' and, unless left out, 'Pausado'.
 */
export function ConnectionBadges({
  connection,
  statusTestId,
  showPaused = true,
}: {
  connection: Pick<ConnectionView, 'status' | 'isDefault' | 'paused'>;
  statusTestId?: string;
  showPaused?: boolean;
}) {
  const status = CONNECTION_STATUS_BADGES[connection.status];
  return (
    <>
      <Badge tone={status.tone} data-testid={statusTestId}>
        {status.label}
      </Badge>
      {connection.isDefault ? (
        <Badge tone="brand">
          <Star aria-hidden />
          {connectionsMsg.defaultBadge}
        </Badge>
      ) : null}
      {showPaused && connection.paused ? (
        <Badge tone="yellow">
          <Pause aria-hidden />
          {connectionsMsg.pausedBadge}
        </Badge>
      ) : null}
    </>
  );
}
