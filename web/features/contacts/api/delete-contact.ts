import { api } from '#web/lib/api';
import { contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export function deleteContact(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(`/api/contacts/${encodeURIComponent(id)}`);
}

export function useDeleteContact() {
  return useInvalidatingMutation(deleteContact, [contactsQueryKey, metricsQueryKey]);
}
