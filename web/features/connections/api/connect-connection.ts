import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { connectionQueryKey } from '#web/lib/query-keys';
import { invalidateConnections } from './invalidate';

export interface ConnectConnectionResponse {
  success: boolean;
  message: string;
  pairingCode: string | null;
}

/** Starts pairing a personal number; its QR code then comes with GET /api/connections/{id}. */
export function connectConnection(id: string): Promise<ConnectConnectionResponse> {
  return api.post(`/api/connections/${encodeURIComponent(id)}/connect`);
}

export function useConnectConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectConnection,
    onSettled: (_data, _error, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: connectionQueryKey(id) }),
        invalidateConnections(queryClient),
      ]),
  });
}
