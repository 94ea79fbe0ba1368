import type { z } from 'zod';
import type { ContactInput, contactMutationResponse } from '#contract/contacts';
import { contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';
import { useSaveMutation } from '#web/lib/use-invalidating-mutation';

export type ContactMutationResponse = z.infer<typeof contactMutationResponse>;

/** Creates (no id) or updates a contact; refreshes the lists and the dashboard figures. */
export function useSaveContact() {
  return useSaveMutation<ContactMutationResponse, ContactInput>('/api/contacts', [contactsQueryKey, metricsQueryKey]);
}
