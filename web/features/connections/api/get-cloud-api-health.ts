import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudApiHealth } from '#contract/cloud-api';
import { POLL_INTERVALS_MS } from '#contract/constants';
import { api } from '#web/lib/api';
import { cloudApiHealthQueryKey } from '#web/lib/query-keys';

/** Polled every 10 s (SPEC §9); `fresh` re-checks against the Graph API now ('Verificar'). */
export function getCloudApiHealth(fresh = false): Promise<CloudApiHealth> {
  return api.get(`/api/whatsapp-business/health${fresh ? '?fresh=1' : ''}`);
}

export const cloudApiHealthQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: cloudApiHealthQueryKey,
    queryFn: () => getCloudApiHealth(),
    refetchInterval: POLL_INTERVALS_MS.businessHealth,
    enabled,
  });

export function useCloudApiHealth(enabled = true) {
  return useQuery(cloudApiHealthQueryOptions(enabled));
}
