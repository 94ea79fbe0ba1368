import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConnectionDetail } from '#contract/connections';
import { POLL_INTERVALS_MS } from '#contract/constants';
import { keyPathQueryFn } from '#web/lib/query-client';
import { connectionQueryKey } from '#web/lib/query-keys';

/** Polled every 2 s while a dialog shows it (QR codes are replaced as new ones arrive), until connected with its number. */
export const connectionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: connectionQueryKey(id),
    queryFn: keyPathQueryFn<ConnectionDetail>(),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data?.status === 'connected' && data.phoneNumber ? false : POLL_INTERVALS_MS.whatsappSession;
    },
    // Always fresh when a dialog opens: a QR code from a minute ago has expired.
    staleTime: 0,
  });

/** GET /api/connections/{id}: one number, with its QR code while it pairs. */
export function useConnection(id: string) {
  return useQuery(connectionQueryOptions(id));
}
