import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ContactPage } from '#contract/contacts';
import { api } from '#web/lib/api';
import { contactsQueryKey } from '#web/lib/query-keys';

export const CONTACTS_PAGE_SIZE = 50;

/** What the list on screen is narrowed to: the search box and the tag chip. */
export interface ContactsFilter {
  q: string;
  tag: string;
}

/**
 * The one spelling of the list's filter as query parameters (`q`, `tag`), for the list's pages and
 * for the export, so the file holds what the list shows.
 */
export function contactsFilterParams({ q, tag }: ContactsFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (tag) params.set('tag', tag);
  return params;
}

/** One page of the server-side search (name, phone or tag), optionally of the contacts with one tag. */
export function getContactsPage(q: string, page: number, signal?: AbortSignal, tag = ''): Promise<ContactPage> {
  const params = contactsFilterParams({ q, tag });
  params.set('page', String(page));
  params.set('limit', String(CONTACTS_PAGE_SIZE));
  return api.get<ContactPage>(`/api/contacts?${params}`, { signal });
}

/** Download link of the export: the contacts `filter` lists (none: all of them). */
export function contactsExportUrl(format: 'csv' | 'xlsx', filter: ContactsFilter = { q: '', tag: '' }): string {
  const params = contactsFilterParams(filter);
  params.set('format', format);
  return `/api/contacts/export?${params}`;
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
