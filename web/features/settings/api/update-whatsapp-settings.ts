import type { UpdateWhatsappSettingsInput, WhatsappSettings } from '#contract/settings';
import { api } from '#web/lib/api';
import { whatsappSettingsQueryKey } from '#web/lib/query-keys';
import { useCacheWritingMutation } from '#web/lib/use-invalidating-mutation';

/** The settings form sends the six fields of SPEC §3; the stored channel stays as it is. */
export function updateWhatsappSettings(input: UpdateWhatsappSettingsInput): Promise<WhatsappSettings> {
  return api.put<WhatsappSettings>('/api/settings/whatsapp', input);
}

export function useUpdateWhatsappSettings() {
  return useCacheWritingMutation(updateWhatsappSettings, whatsappSettingsQueryKey);
}
