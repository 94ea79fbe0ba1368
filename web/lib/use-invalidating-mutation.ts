import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';

/**
 * A mutation that, once it succeeds, invalidates what it changed (the lists and figures under these
 * query keys) and resolves when they are marked stale, so `mutateAsync` callers see fresh data.
 */
export function useInvalidatingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  queryKeys: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/**
 * Creates (no id: POST to the collection) or updates (PUT to the collection's `/{id}`) one record,
 * then invalidates the lists and figures under these query keys.
 */
export function useSaveMutation<TData, TInput>(collectionPath: string, queryKeys: readonly QueryKey[]) {
  return useInvalidatingMutation(
    ({ id, input }: { id?: string; input: TInput }) =>
      id
        ? api.put<TData>(`${collectionPath}/${encodeURIComponent(id)}`, input)
        : api.post<TData>(collectionPath, input),
    queryKeys,
  );
}

/** A mutation whose answer is the saved record: it replaces what the cache holds under `queryKey`. */
export function useCacheWritingMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  queryKey: QueryKey,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (saved) => queryClient.setQueryData(queryKey, saved),
  });
}
