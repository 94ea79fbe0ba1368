import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConnectionStatus, ConnectionsResponse, ConnectionView } from '#contract/connections';
import { POLL_INTERVALS_MS } from '#contract/constants';
import type { BadgeTone } from '#web/components/ui/badge';
import { useUser } from '../auth/get-me';
import { canReadAs } from '../auth/permissions';
import { keyPathQueryFn } from '../query-client';
import { connectionsQueryKey } from '../query-keys';

/** True while a number is on its way to connecting (or connected, its number not known yet): its row changes by the second. */
function pairing(data: ConnectionsResponse | null | undefined): boolean {
  return (
    data?.connections.some(
      (c) => c.status === 'connecting' || c.status === 'qr' || (c.status === 'connected' && !c.phoneNumber),
    ) ?? false
  );
}

export const connectionsQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: connectionsQueryKey,
    queryFn: keyPathQueryFn<ConnectionsResponse>(),
    // Polled like the session while a number pairs, so its row turns 'Conectado' by itself.
    refetchInterval: (query) => (pairing(query.state.data) ? POLL_INTERVALS_MS.whatsappSession : false),
    enabled,
  });

/**
 * GET /api/connections: the account's numbers and how many its plan allows. Read by the 'Números'
 * page, the campaign dialog's number picker and the dashboard's connection card. Managers and the
 * owner only (an agent's screens go without: the server refuses them the numbers).
 */
export function useConnections() {
  const { user } = useUser();
  return useQuery(connectionsQueryOptions(user !== null && canReadAs(user, 'manager')));
}

/** Each status as its badge says it. */
export const CONNECTION_STATUS_BADGES: Record<ConnectionStatus, { label: string; tone: BadgeTone }> = {
  disconnected: { label: 'Desconectado', tone: 'neutral' },
  connecting: { label: 'Conectando...', tone: 'yellow' },
  qr: { label: 'Aguardando QR code', tone: 'blue' },
  connected: { label: 'Conectado', tone: 'green' },
  restricted: { label: 'Restrito', tone: 'red' },
  logged_out: { label: 'Desconectado no celular', tone: 'yellow' },
};

/** Campaign messages a number may still send today (São Paulo day): its daily limit less what it sent. */
export function capacityToday(c: Pick<ConnectionView, 'dailyLimit' | 'sentToday'>): number {
  return Math.max(0, c.dailyLimit - c.sentToday);
}
