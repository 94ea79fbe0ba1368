import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { toastError, toastOutcome } from '#web/lib/toasts';
import { invalidateConnections } from './invalidate';

export function disconnectConnection(id: string): Promise<OkResponse> {
  return api.post(`/api/connections/${encodeURIComponent(id)}/disconnect`);
}

export function useDisconnectConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectConnection,
    onSuccess: () => invalidateConnections(queryClient),
  });
}

/** What disconnecting a number, once confirmed, shows: the server's message, then `onDone`; or why it failed. */
export function disconnectOutcome(onDone: () => void) {
  return toastOutcome(onDone, (error) => toastError(error, 'Não foi possível desconectar o número.'));
}
