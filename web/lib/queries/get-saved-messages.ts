import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SavedMessage } from '#contract/saved-messages';
import { keyPathQueryFn } from '../query-client';
import { savedMessagesQueryKey } from '../query-keys';

export const savedMessagesQueryOptions = () =>
  queryOptions({ queryKey: savedMessagesQueryKey, queryFn: keyPathQueryFn<SavedMessage[]>() });

export function useSavedMessages(enabled = true) {
  return useQuery({ ...savedMessagesQueryOptions(), enabled });
}
