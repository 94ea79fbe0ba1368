import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BusinessProfile } from '#contract/cloud-api';
import { api } from '#web/lib/api';
import { businessProfileQueryKey } from '#web/lib/query-keys';

/** A failure is logged and clears the profile (SPEC §8): the card simply disappears. */
export async function getBusinessProfile(): Promise<BusinessProfile | null> {
  try {
    const res = await api.get<{ success: boolean; profile: BusinessProfile }>('/api/whatsapp-business/profile');
    return res.success ? res.profile : null;
  } catch (error) {
    console.warn('Falha ao carregar o perfil comercial', error);
    return null;
  }
}

/** Fetched only while the API is healthy (SPEC §4). */
export function useBusinessProfile(enabled: boolean) {
  return useQuery(queryOptions({ queryKey: businessProfileQueryKey, queryFn: getBusinessProfile, enabled }));
}
