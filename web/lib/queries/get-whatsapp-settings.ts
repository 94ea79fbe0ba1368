import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WhatsappSettings } from '#contract/settings';
import { api } from '../api';
import { whatsappSettingsQueryKey } from '../query-keys';

export function getWhatsappSettings({ signal }: { signal?: AbortSignal } = {}): Promise<WhatsappSettings> {
  return api.get<WhatsappSettings>('/api/settings/whatsapp', { signal });
}

export function useWhatsappSettings(enabled = true) {
  return useQuery(queryOptions({ queryKey: whatsappSettingsQueryKey, queryFn: getWhatsappSettings, enabled }));
}
