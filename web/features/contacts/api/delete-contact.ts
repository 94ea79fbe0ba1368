import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export function deleteContact(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(`/api/contacts/${encodeURIComponent(id)}`);
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contactsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
