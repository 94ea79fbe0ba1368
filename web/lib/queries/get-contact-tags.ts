import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ContactTagCount } from '#contract/contacts';
import { keyPathQueryFn } from '../query-client';
import { contactTagsQueryKey } from '../query-keys';

export const contactTagsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: contactTagsQueryKey, queryFn: keyPathQueryFn<ContactTagCount[]>(), enabled });

/** The account's tags with how many contacts carry each, most used first. */
export function useContactTags(enabled = true) {
  return useQuery(contactTagsQueryOptions(enabled));
}
