import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WhatsappSettings } from '../../../../contract/settings';
import { api } from '../../../lib/api';
import { whatsappSettingsQueryKey } from '../../../lib/query-keys';

export function updateWhatsappSettings(input: WhatsappSettings): Promise<WhatsappSettings> {
  return api.put<WhatsappSettings>('/api/settings/whatsapp', input);
}

export function useUpdateWhatsappSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWhatsappSettings,
    onSuccess: (saved) => queryClient.setQueryData(whatsappSettingsQueryKey, saved),
  });
}
