import type { NotificationSettings } from '#contract/settings';
import { api } from '#web/lib/api';
import { notificationSettingsQueryKey } from '#web/lib/query-keys';
import { useCacheWritingMutation } from '#web/lib/use-invalidating-mutation';

export function updateNotificationSettings(input: NotificationSettings): Promise<NotificationSettings> {
  return api.put<NotificationSettings>('/api/settings/notifications', input);
}

export function useUpdateNotificationSettings() {
  return useCacheWritingMutation(updateNotificationSettings, notificationSettingsQueryKey);
}
