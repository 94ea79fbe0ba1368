import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ContactInput, contactMutationResponse } from '#contract/contacts';
import { api } from '#web/lib/api';
import { contactsQueryKey, metricsQueryKey } from '#web/lib/query-keys';

export type ContactMutationResponse = z.infer<typeof contactMutationResponse>;

export function createContact(input: ContactInput): Promise<ContactMutationResponse> {
  return api.post<ContactMutationResponse>('/api/contacts', input);
}

export function updateContact(id: string, input: ContactInput): Promise<ContactMutationResponse> {
  return api.put<ContactMutationResponse>(`/api/contacts/${encodeURIComponent(id)}`, input);
}

/** Creates (no id) or updates a contact; refreshes the lists and the dashboard figures. */
export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ContactInput }) =>
      id ? updateContact(id, input) : createContact(input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contactsQueryKey }),
        queryClient.invalidateQueries({ queryKey: metricsQueryKey }),
      ]),
  });
}
