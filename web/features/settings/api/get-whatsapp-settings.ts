import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WhatsappSettings } from '../../../../contract/settings';
import { api } from '../../../lib/api';

export const whatsappSettingsQueryKey = ['/api/settings/whatsapp'] as const;

export function getWhatsappSettings({ signal }: { signal?: AbortSignal } = {}): Promise<WhatsappSettings> {
  return api.get<WhatsappSettings>('/api/settings/whatsapp', { signal });
}

export function useWhatsappSettings(enabled = true) {
  return useQuery(queryOptions({ queryKey: whatsappSettingsQueryKey, queryFn: getWhatsappSettings, enabled }));
}
