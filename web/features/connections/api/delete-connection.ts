import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { invalidateConnections } from './invalidate';

export function deleteConnection(id: string): Promise<OkResponse> {
  return api.delete(`/api/connections/${encodeURIComponent(id)}`);
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConnection,
    onSuccess: () => invalidateConnections(queryClient),
  });
}
