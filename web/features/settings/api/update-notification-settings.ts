import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '#contract/settings';
import { api } from '#web/lib/api';
import { notificationSettingsQueryKey } from '#web/lib/query-keys';

export function updateNotificationSettings(input: NotificationSettings): Promise<NotificationSettings> {
  return api.put<NotificationSettings>('/api/settings/notifications', input);
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onSuccess: (saved) => queryClient.setQueryData(notificationSettingsQueryKey, saved),
  });
}
