import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ContactTagCount } from '../../../../contract/contacts';
import { keyPathQueryFn } from '../../../lib/query-client';
import { contactsQueryKey } from './get-contacts';

/**
 * GET /api/contacts/tags (its key path). Under the contacts key, so every change to contacts (save,
 * delete, import, bulk action) refreshes the tags and their counts too.
 */
export const contactTagsQueryKey = [...contactsQueryKey, 'tags'] as const;

export const contactTagsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: contactTagsQueryKey, queryFn: keyPathQueryFn<ContactTagCount[]>(), enabled });

/** The account's tags with how many contacts carry each, most used first. */
export function useContactTags(enabled = true) {
  return useQuery(contactTagsQueryOptions(enabled));
}
