import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';

/** Sends the campaign's message once to `phone`, or to the account's own number when omitted. */
export function sendTestMessage(id: string, phone?: string): Promise<{ success: boolean; message: string }> {
  return api.post(`/api/campaigns/${encodeURIComponent(id)}/test`, phone ? { phone } : {});
}

export function useSendTestMessage() {
  return useMutation({
    mutationFn: ({ id, phone }: { id: string; phone?: string }) => sendTestMessage(id, phone),
  });
}
