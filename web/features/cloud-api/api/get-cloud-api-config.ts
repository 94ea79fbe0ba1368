import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudApiConfig } from '../../../../contract/cloud-api';
import { keyPathQueryFn } from '../../../lib/query-client';

export const cloudApiConfigQueryKey = ['/api/whatsapp-business/config'] as const;

export function useCloudApiConfig(enabled = true) {
  return useQuery(
    queryOptions({ queryKey: cloudApiConfigQueryKey, queryFn: keyPathQueryFn<CloudApiConfig>(), enabled }),
  );
}
