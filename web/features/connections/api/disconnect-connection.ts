import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
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
