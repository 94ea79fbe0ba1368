import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS_MS } from '../../../../contract/constants';
import type { BusinessHealth } from '../../../../contract/whatsapp-business';
import { api } from '../../../lib/api';

export const businessHealthQueryKey = ['/api/whatsapp-business/health'] as const;

/** Polled every 10 s (SPEC §9); `fresh` re-checks against the Graph API now ('Verificar'). */
export function getBusinessHealth(fresh = false): Promise<BusinessHealth> {
  return api.get(`/api/whatsapp-business/health${fresh ? '?fresh=1' : ''}`);
}

export const businessHealthQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: businessHealthQueryKey,
    queryFn: () => getBusinessHealth(),
    refetchInterval: POLL_INTERVALS_MS.businessHealth,
    enabled,
  });

export function useBusinessHealth(enabled = true) {
  return useQuery(businessHealthQueryOptions(enabled));
}
