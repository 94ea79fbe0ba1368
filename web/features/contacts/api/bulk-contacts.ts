import type { ContactBulkInput, ContactBulkResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { audienceQueryKey, contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

/** Adds or removes one tag, or deletes, for the selected contacts. */
export function bulkContacts(input: ContactBulkInput): Promise<ContactBulkResponse> {
  return api.post<ContactBulkResponse>('/api/contacts/bulk', input);
}

export function useBulkContacts() {
  return useInvalidatingMutation(bulkContacts, [contactsQueryKey, metricsQueryKey, audienceQueryKey]);
}
