import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ContactPage } from '../../../../contract/contacts';
import { api } from '../../../lib/api';
import { contactsQueryKey } from '../../../lib/query-keys';

export const CONTACTS_PAGE_SIZE = 50;

/** One page of the server-side search (name, phone or tag), optionally of the contacts with one tag. */
export function getContactsPage(q: string, page: number, signal?: AbortSignal, tag = ''): Promise<ContactPage> {
  const params = new URLSearchParams({ q, page: String(page), limit: String(CONTACTS_PAGE_SIZE) });
  if (tag) params.set('tag', tag);
  return api.get<ContactPage>(`/api/contacts?${params}`, { signal });
}

export const contactsPageQueryOptions = (q: string, page: number, tag = '') =>
  queryOptions({
    queryKey: [...contactsQueryKey, { q, page, tag }],
    queryFn: ({ signal }) => getContactsPage(q, page, signal, tag),
    placeholderData: keepPreviousData,
  });

/** One page of the server-side search, with the account's totals. */
export function useContactsPage(q: string, page: number, tag = '') {
  return useQuery(contactsPageQueryOptions(q, page, tag));
}
