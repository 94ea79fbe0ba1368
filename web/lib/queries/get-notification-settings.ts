import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationSettings } from '#contract/settings';
import { api } from '../api';
import { notificationSettingsQueryKey } from '../query-keys';

export function getNotificationSettings({ signal }: { signal?: AbortSignal } = {}): Promise<NotificationSettings> {
  return api.get<NotificationSettings>('/api/settings/notifications', { signal });
}

export function useNotificationSettings(enabled = true) {
  return useQuery(queryOptions({ queryKey: notificationSettingsQueryKey, queryFn: getNotificationSettings, enabled }));
}
