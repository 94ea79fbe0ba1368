import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactBulkInput, ContactBulkResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { audienceQueryKey, contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

/** Adds or removes one tag, or deletes, for the selected contacts. */
export function bulkContacts(input: ContactBulkInput): Promise<ContactBulkResponse> {
  return api.post<ContactBulkResponse>('/api/contacts/bulk', input);
}

export function useBulkContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkContacts,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contactsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
        queryClient.invalidateQueries({ queryKey: audienceQueryKey }),
      ]),
  });
}
