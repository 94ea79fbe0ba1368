import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { okResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { adminUsersQueryKey } from '#web/lib/query-keys';

export function deleteUser(id: string): Promise<z.infer<typeof okResponse>> {
  return api.delete(`/api/admin/users/${encodeURIComponent(id)}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
  });
}
