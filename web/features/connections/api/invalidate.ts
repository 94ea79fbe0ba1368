import type { QueryClient } from '@tanstack/react-query';
import { connectionsQueryKey, whatsappChannelQueryKey, whatsappSessionQueryKey } from '#web/lib/query-keys';

/**
 * After a change to a number: the list and each number, and the default number's views elsewhere in
 * the app (the session card, the sending channel), which may now speak of another number.
 */
export function invalidateConnections(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: connectionsQueryKey }),
    queryClient.invalidateQueries({ queryKey: whatsappSessionQueryKey }),
    queryClient.invalidateQueries({ queryKey: whatsappChannelQueryKey }),
  ]);
}
