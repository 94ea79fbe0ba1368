import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS_MS } from '#contract/constants';
import type { WhatsappSession } from '#contract/whatsapp';
import { useUser } from '../auth/get-me';
import { canReadWorkspace } from '../auth/permissions';
import { keyPathQueryFn } from '../query-client';
import { whatsappSessionQueryKey } from '../query-keys';

export const whatsappSessionQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: whatsappSessionQueryKey,
    queryFn: keyPathQueryFn<WhatsappSession>(),
    refetchInterval: POLL_INTERVALS_MS.whatsappSession,
    enabled,
  });

/** The WhatsApp connection, polled every 2 s while a user who may read it is logged in. */
export function useWhatsappSession() {
  const { user } = useUser();
  return useQuery(whatsappSessionQueryOptions(user !== null && canReadWorkspace(user)));
}

export type ConnectionView = 'offline' | 'detecting' | 'online';

/** The three states of SPEC §4: disconnected, connected without a number yet, connected with a number. */
export function connectionView(
  session: Pick<WhatsappSession, 'isConnected' | 'phoneNumber'> | null | undefined,
): ConnectionView {
  if (!session?.isConnected) return 'offline';
  return session.phoneNumber ? 'online' : 'detecting';
}
