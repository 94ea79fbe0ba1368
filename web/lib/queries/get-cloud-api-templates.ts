import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudApiTemplate } from '#contract/cloud-api';
import { api } from '../api';
import { cloudApiTemplatesQueryKey } from '../query-keys';

export type { CloudApiTemplate };

/** The business account's message templates (only fetched where a Cloud API campaign is written). */
export function useCloudApiTemplates(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: cloudApiTemplatesQueryKey,
      queryFn: ({ signal }) =>
        api.get<{ templates: CloudApiTemplate[] }>('/api/whatsapp-business/templates', { signal }),
      enabled,
      staleTime: 60_000,
    }),
  );
}
