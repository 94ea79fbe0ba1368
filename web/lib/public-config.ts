import { queryOptions, useQuery } from '@tanstack/react-query';
import { whatsappLink } from '#contract/links';
import type { PublicConfig } from '#contract/public-config';
import { api } from './api';
import { publicConfigQueryKey } from './query-keys';

// Shown only until the configuration arrives (or if it cannot be loaded).
const FALLBACK_PRODUCT_NAME = 'Disparo';

export function getPublicConfig({ signal }: { signal?: AbortSignal } = {}): Promise<PublicConfig> {
  return api.get<PublicConfig>('/api/public-config', { signal });
}

export const publicConfigQueryOptions = () =>
  queryOptions({ queryKey: publicConfigQueryKey, queryFn: getPublicConfig });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}

export function useProductName(): string {
  return usePublicConfig().data?.productName ?? FALLBACK_PRODUCT_NAME;
}

/** A wa.me link to the provider's support number with a prefilled text; null until the config loads. */
export function useSupportWhatsappLink(text: string): string | null {
  const { data } = usePublicConfig();
  return data?.supportWhatsapp ? whatsappLink(data.supportWhatsapp, text) : null;
}
