import type { z } from 'zod';
import type { ContactInput, contactMutationResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type ContactMutationResponse = z.infer<typeof contactMutationResponse>;

export function createContact(input: ContactInput): Promise<ContactMutationResponse> {
  return api.post<ContactMutationResponse>('/api/contacts', input);
}

export function updateContact(id: string, input: ContactInput): Promise<ContactMutationResponse> {
  return api.put<ContactMutationResponse>(`/api/contacts/${encodeURIComponent(id)}`, input);
}

/** Creates (no id) or updates a contact; refreshes the lists and the dashboard figures. */
export function useSaveContact() {
  return useInvalidatingMutation(
    ({ id, input }: { id?: string; input: ContactInput }) => (id ? updateContact(id, input) : createContact(input)),
    [contactsQueryKey, metricsQueryKey],
  );
}
