import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConnectWhatsappInput, ConnectWhatsappResponse } from '#contract/whatsapp-connection';
import { api } from '#web/lib/api';
import { whatsappSessionQueryKey } from '#web/lib/query-keys';

/** No body starts a QR pairing; `phoneNumber` asks for a pairing code instead. */
export function connectWhatsapp(input?: ConnectWhatsappInput): Promise<ConnectWhatsappResponse> {
  return api.post('/api/whatsapp/connect', input ?? undefined);
}

/** Starts a connection; the 2-second poll then reports 'connecting', 'qr' and 'connected'. */
export function useConnectWhatsapp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input?: ConnectWhatsappInput) => connectWhatsapp(input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappSessionQueryKey }),
  });
}
