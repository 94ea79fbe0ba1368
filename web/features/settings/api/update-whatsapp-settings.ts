import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWhatsappSettingsInput, WhatsappSettings } from '#contract/settings';
import { api } from '#web/lib/api';
import { whatsappSettingsQueryKey } from '#web/lib/query-keys';

/** The settings form sends the six fields of SPEC §3; the stored channel stays as it is. */
export function updateWhatsappSettings(input: UpdateWhatsappSettingsInput): Promise<WhatsappSettings> {
  return api.put<WhatsappSettings>('/api/settings/whatsapp', input);
}

export function useUpdateWhatsappSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWhatsappSettings,
    onSuccess: (saved) => queryClient.setQueryData(whatsappSettingsQueryKey, saved),
  });
}
