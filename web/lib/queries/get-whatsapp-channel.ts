import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WhatsappChannelInfo } from '#contract/whatsapp-connection';
import { keyPathQueryFn } from '../query-client';
import { whatsappChannelQueryKey } from '../query-keys';

/** Which channel sends (personal number or Cloud API) and whether it is ready. */
export function useWhatsappChannel(enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: whatsappChannelQueryKey,
      queryFn: keyPathQueryFn<WhatsappChannelInfo>(),
      enabled,
      refetchInterval: 30_000,
    }),
  );
}
