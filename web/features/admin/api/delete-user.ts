import type { z } from 'zod';
import type { okResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { adminUsersQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function deleteUser(id: string): Promise<z.infer<typeof okResponse>> {
  return api.delete(`/api/admin/users/${encodeURIComponent(id)}`);
}

export function useDeleteUser() {
  return useInvalidatingMutation(deleteUser, [adminUsersQueryKey]);
}
