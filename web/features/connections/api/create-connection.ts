import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CreateConnectionInput, connectionSavedResponse } from '#contract/connections';
import { api } from '#web/lib/api';
import { invalidateConnections } from './invalidate';

export type ConnectionSaved = z.infer<typeof connectionSavedResponse>;

/** 403 over the plan's limit, 409 when another account uses the Phone Number ID: the caller shows the message. */
export function createConnection(input: CreateConnectionInput): Promise<ConnectionSaved> {
  return api.post('/api/connections', input);
}

export function useCreateConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConnection,
    onSuccess: () => invalidateConnections(queryClient),
  });
}
