import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SavedMessage } from '../../../../contract/saved-messages';
import { keyPathQueryFn } from '../../../lib/query-client';

/** The saved messages list (SPEC §7: refetched after a message is saved). */
export const savedMessagesQueryKey = ['/api/messages'] as const;

export const savedMessagesQueryOptions = () =>
  queryOptions({ queryKey: savedMessagesQueryKey, queryFn: keyPathQueryFn<SavedMessage[]>() });

export function useSavedMessages(enabled = true) {
  return useQuery({ ...savedMessagesQueryOptions(), enabled });
}
