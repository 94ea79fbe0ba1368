import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateConnectionInput } from '#contract/connections';
import { api } from '#web/lib/api';
import type { ConnectionSaved } from './create-connection';
import { invalidateConnections } from './invalidate';

/** PATCH /api/connections/{id}: only what is sent changes (label, default, paused, chatbot, settings, a restriction cleared). */
export function updateConnection(id: string, input: UpdateConnectionInput): Promise<ConnectionSaved> {
  return api.patch(`/api/connections/${encodeURIComponent(id)}`, input);
}

export function useUpdateConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateConnectionInput }) => updateConnection(id, input),
    onSuccess: () => invalidateConnections(queryClient),
  });
}
