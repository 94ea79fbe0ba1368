import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminUpdateUserInput, adminUpdateUserResponse } from '#contract/admin';
import type { User } from '#contract/auth';
import { api } from '#web/lib/api';
import { adminUsersQueryKey } from '#web/lib/query-keys';

export type AdminUpdateUserResponse = z.infer<typeof adminUpdateUserResponse>;

export function updateUser(id: string, input: AdminUpdateUserInput): Promise<AdminUpdateUserResponse> {
  return api.patch<AdminUpdateUserResponse>(`/api/admin/users/${encodeURIComponent(id)}`, input);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: AdminUpdateUserInput }) => updateUser(id, input),
    onSuccess: ({ user }) => {
      queryClient.setQueryData<User[] | null>(adminUsersQueryKey, (list) =>
        list?.map((u) => (u.id === user.id ? user : u)),
      );
      return queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
    },
  });
}
