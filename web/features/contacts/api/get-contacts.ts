import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ContactPage } from '../../../../contract/contacts';
import { api } from '../../../lib/api';

/** Prefix of every contacts query; mutations invalidate it. */
export const contactsQueryKey = ['/api/contacts'] as const;

export const CONTACTS_PAGE_SIZE = 50;

export function getContactsPage(q: string, page: number, signal?: AbortSignal): Promise<ContactPage> {
  const params = new URLSearchParams({ q, page: String(page), limit: String(CONTACTS_PAGE_SIZE) });
  return api.get<ContactPage>(`/api/contacts?${params}`, { signal });
}

export const contactsPageQueryOptions = (q: string, page: number) =>
  queryOptions({
    queryKey: [...contactsQueryKey, { q, page }],
    queryFn: ({ signal }) => getContactsPage(q, page, signal),
    placeholderData: keepPreviousData,
  });

/** One page of the server-side search, with the account's totals. */
export function useContactsPage(q: string, page: number) {
  return useQuery(contactsPageQueryOptions(q, page));
}
