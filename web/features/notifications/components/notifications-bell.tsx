import { Bell, BellOff, CheckCheck } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { type NavigateFunction, useNavigate } from 'react-router';
import { isAppLink, type Notification, notificationMsg } from '#contract/notifications';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '#web/components/ui/popover';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatDateTime, formatRelativeTime } from '#web/lib/format';
import { useNow } from '#web/lib/use-now';
import { cn } from '#web/lib/utils';
import { useNotifications } from '../api/get-notifications';
import { useUnreadCount } from '../api/get-unread-count';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { useBrowserNotifications } from '../use-browser-notifications';

/** Goes to a notification's link; a '#section' is scrolled to once the page has drawn it. */
function follow(navigate: NavigateFunction, link: string): void {
  navigate(link);
  const id = link.split('#')[1];
  if (!id) return;
  let tries = 0;
  const look = () => {
    const target = document.getElementById(decodeURIComponent(id));
    if (target) target.scrollIntoView({ block: 'start' });
    else if (tries++ < 40) window.setTimeout(look, 50);
  };
  window.setTimeout(look, 0);
}

function ListSkeleton() {
  return (
    <div className="grid gap-3 p-4" role="status" aria-busy="true" aria-label="Carregando notificações">
      {[0, 1, 2].map((i) => (
        <div key={i} className="grid gap-1.5">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-3 w-full" />
        </div>
      ))}
    </div>
  );
}

function NotificationItem({
  notification: n,
  unread,
  now,
  onOpen,
}: {
  notification: Notification;
  unread: boolean;
  now: number;
  onOpen: (n: Notification) => void;
}) {
  const linked = isAppLink(n.link);
  const content = (
    <>
      <span className="flex items-start justify-between gap-3">
        <span className="flex min-w-0 items-center gap-2 text-sm font-medium">
          {unread ? <span aria-hidden className="size-2 shrink-0 rounded-full bg-brand" /> : null}
          <span className="min-w-0 break-words">{n.title}</span>
          {unread ? <span className="sr-only">(não lida)</span> : null}
        </span>
        <time
          dateTime={n.createdAt}
          title={formatDateTime(n.createdAt)}
          className="shrink-0 text-xs text-muted-foreground tabular-nums"
        >
          {formatRelativeTime(n.createdAt, now)}
        </time>
      </span>
      <span className="text-sm break-words text-muted-foreground">{n.body}</span>
    </>
  );
  const base = cn('grid w-full gap-1 px-4 py-3 text-left', unread && 'bg-brand-soft/60');
  return (
    <li data-testid="notification" data-unread={unread ? 'true' : 'false'}>
      {linked ? (
        <button
          type="button"
          className={cn(base, 'hover:bg-muted focus-visible:bg-muted focus-visible:outline-none')}
          onClick={() => onOpen(n)}
        >
          {content}
        </button>
      ) : (
        <div className={base}>{content}</div>
      )}
    </li>
  );
}

/**
 * The open panel. Its list is read afresh each time it opens; what was unread then stays
 * highlighted while it is open and is marked read on the server at once (the badge clears).
 * 'Marcar todas como lidas' marks every notification of the account read, also those not listed.
 */
function NotificationsPanel({ onClose }: { onClose: () => void }) {
  const list = useNotifications();
  const markRead = useMarkNotificationsRead();
  const navigate = useNavigate();
  const now = useNow(60_000);
  const [fresh, setFresh] = useState<ReadonlySet<string> | null>(null);
  const { mutate } = markRead;

  useEffect(() => {
    if (fresh !== null || !list.isFetchedAfterMount || !list.data) return;
    const ids = list.data.notifications.filter((n) => !n.read).map((n) => n.id);
    setFresh(new Set(ids));
    if (ids.length) mutate({ ids });
  }, [fresh, list.isFetchedAfterMount, list.data, mutate]);

  const remaining = markRead.data?.unread ?? (list.data ? list.data.unread - (fresh?.size ?? 0) : 0);
  const canMarkAll = (fresh?.size ?? 0) > 0 || remaining > 0;

  const open = (n: Notification) => {
    if (!isAppLink(n.link)) return;
    onClose();
    follow(navigate, n.link);
  };

  let body: ReactNode;
  if (list.isError) {
    body = (
      <ErrorState
        title={notificationMsg.loadError}
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
        className="py-6"
      />
    );
  } else if (!list.isFetchedAfterMount || !list.data || fresh === null) {
    body = <ListSkeleton />;
  } else if (list.data.notifications.length === 0) {
    body = <EmptyState icon={BellOff} title={notificationMsg.empty} description={notificationMsg.emptyHint} />;
  } else {
    body = (
      <ul className="max-h-[min(70dvh,28rem)] divide-y overflow-y-auto" aria-label={notificationMsg.panelTitle}>
        {list.data.notifications.map((n) => (
          <NotificationItem key={n.id} notification={n} unread={fresh.has(n.id)} now={now} onOpen={open} />
        ))}
      </ul>
    );
  }

  return (
    <>
      <div className="flex items-center justify-between gap-2 border-b px-4 py-2">
        <p className="py-1 text-sm font-semibold">{notificationMsg.panelTitle}</p>
        {canMarkAll ? (
          <Button
            variant="ghost"
            size="sm"
            className="h-8 px-2 text-xs"
            disabled={markRead.isPending}
            onClick={() => mutate({}, { onSuccess: () => setFresh(new Set()) })}
          >
            <CheckCheck aria-hidden />
            {notificationMsg.markAllRead}
          </Button>
        ) : null}
      </div>
      {body}
    </>
  );
}

/** The header's bell: the unread count (polled every 30 s) and the panel of notifications. */
export function NotificationsBell() {
  const [open, setOpen] = useState(false);
  const count = useUnreadCount();
  const unread = count.data?.unread ?? 0;
  useBrowserNotifications(count.data?.unread);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={notificationMsg.bellLabel(unread)}
          data-testid="notifications-bell"
        >
          <Bell aria-hidden className="size-5" />
          {unread > 0 ? (
            <span
              aria-hidden
              data-testid="notifications-badge"
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-bold text-white tabular-nums"
            >
              {notificationMsg.badge(unread)}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label={notificationMsg.panelTitle} className="w-96 p-0">
        <NotificationsPanel onClose={() => setOpen(false)} />
      </PopoverContent>
    </Popover>
  );
}
