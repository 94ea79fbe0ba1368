import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { okResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { whatsappSessionQueryKey } from '#web/lib/query-keys';

export function disconnectWhatsapp(): Promise<z.infer<typeof okResponse>> {
  return api.post('/api/whatsapp/disconnect');
}

/** On success the session is refetched (SPEC §4); failures are for the caller (console only). */
export function useDisconnectWhatsapp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectWhatsapp,
    onSuccess: () => queryClient.refetchQueries({ queryKey: whatsappSessionQueryKey }),
  });
}
