import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { isAppLink, type Notification, type NotificationList } from '#contract/notifications';
import { api } from '#web/lib/api';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadAs } from '#web/lib/auth/permissions';
import { readBrowserPermission, showBrowserNotification } from '#web/lib/browser-notifications';
import { useNotificationSettings } from '#web/lib/queries/get-notification-settings';

const CLOCK_MARGIN_MS = 2 * 60_000;

/** At most this many browser notifications for one change of the bell's count. */
export const BROWSER_NOTIFICATIONS_MAX = 3;

/**
 * Which notifications to show in the browser: unread, created since the page opened (older ones
 * were there before; the bell has them), not shown yet; the newest first, a few at most.
 */
export function notificationsToShow(
  list: readonly Notification[],
  since: string,
  shown: ReadonlySet<string>,
  max: number = BROWSER_NOTIFICATIONS_MAX,
): Notification[] {
  const from = Date.parse(since);
  return list
    .filter((n) => !n.read && !shown.has(n.id) && Date.parse(n.createdAt) > from)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .slice(0, max);
}

/**
 * 'Notificações no navegador' (Settings → Notificações): while the dashboard is open, a rise of the
 * bell's unread count (polled) shows the new notifications as browser notifications, where the
 * account wants them and this browser has granted the permission (never a prompt from here).
 * Clicking one brings the tab forward and opens its link.
 */
export function useBrowserNotifications(unread: number | undefined): void {
  const user = useAuthenticatedUser();
  // The account's preferences are the managers' to read: an agent's browser shows none.
  const settings = useNotificationSettings(canReadAs(user, 'manager'));
  const wanted = settings.data?.pushNotifications ?? false;
  const navigate = useNavigate();
  // Since the page opened, with a margin for a browser clock a little ahead of the server's.
  const since = useRef(new Date(Date.now() - CLOCK_MARGIN_MS).toISOString());
  const shown = useRef(new Set<string>());
  const last = useRef<number | undefined>(undefined);

  useEffect(() => {
    const before = last.current;
    last.current = unread;
    if (unread === undefined || before === undefined || unread <= before) return;
    if (!wanted || readBrowserPermission() !== 'granted') return;
    let cancelled = false;
    api
      .get<NotificationList>('/api/notifications')
      .then((list) => {
        if (cancelled) return;
        for (const n of notificationsToShow(list.notifications, since.current, shown.current)) {
          shown.current.add(n.id);
          const shownOne = showBrowserNotification(n.title, {
            body: n.body,
            tag: n.id,
            onClick: () => {
              if (isAppLink(n.link)) navigate(n.link);
            },
          });
          if (!shownOne) break;
        }
      })
      .catch(() => {
        // The bell still shows them.
      });
    return () => {
      cancelled = true;
    };
  }, [unread, wanted, navigate]);
}
