import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudApiConfig } from '#contract/cloud-api';
import { keyPathQueryFn } from '#web/lib/query-client';
import { cloudApiConfigQueryKey } from '#web/lib/query-keys';

export function useCloudApiConfig(enabled = true) {
  return useQuery(
    queryOptions({ queryKey: cloudApiConfigQueryKey, queryFn: keyPathQueryFn<CloudApiConfig>(), enabled }),
  );
}
