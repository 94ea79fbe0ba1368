import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BusinessConfig } from '../../../../contract/whatsapp-business';
import { keyPathQueryFn } from '../../../lib/query-client';

export const businessConfigQueryKey = ['/api/whatsapp-business/config'] as const;

export function useBusinessConfig(enabled = true) {
  return useQuery(
    queryOptions({ queryKey: businessConfigQueryKey, queryFn: keyPathQueryFn<BusinessConfig>(), enabled }),
  );
}
