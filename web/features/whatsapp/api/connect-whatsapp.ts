import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { whatsappSessionQueryKey } from './get-whatsapp-session';

export function connectWhatsapp(): Promise<unknown> {
  return api.post('/api/whatsapp/connect');
}

/** Starts a connection; the 2-second poll then reports 'connecting', 'qr' and 'connected'. */
export function useConnectWhatsapp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectWhatsapp,
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappSessionQueryKey }),
  });
}
