import { Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { presenceMsg } from '#contract/presence';
import { EmptyState, ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatDateTime, formatRelativeTime } from '#web/lib/format';
import { useNow } from '#web/lib/use-now';
import { useActiveUsers } from '../api/get-active-users';

/** Verificação → Online: who was active in the last 24 hours, newest first (polled every 10 s). */
export function ActiveUsersList({ userId, isAdmin }: { userId: string; isAdmin: boolean }) {
  const active = useActiveUsers(true);
  const now = useNow(30_000);

  let body: ReactNode;
  if (active.isPending) {
    body = (
      <div className="grid gap-3" role="status" aria-busy="true" aria-label="Carregando usuários">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  } else if (active.isError) {
    body = (
      <ErrorState title={presenceMsg.loadError} onRetry={() => void active.refetch()} retrying={active.isFetching} />
    );
  } else if (active.data.activeUsers.length === 0) {
    body = <EmptyState icon={Users} title={presenceMsg.empty} />;
  } else {
    body = (
      <ul className="grid divide-y rounded-md border" aria-label={presenceMsg.listTitle}>
        {active.data.activeUsers.map((u) => (
          <li key={u.userId} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm">
            <span className="min-w-0 truncate font-medium">
              {u.name}
              {u.userId === userId ? <span className="text-muted-foreground"> ({presenceMsg.you})</span> : null}
            </span>
            <span className="flex items-center gap-2">
              <time dateTime={u.lastSeen} title={formatDateTime(u.lastSeen)} className="text-xs text-muted-foreground">
                {formatRelativeTime(u.lastSeen, now)}
              </time>
              {u.isOnline ? (
                <Badge tone="green">
                  <span aria-hidden className="size-1.5 rounded-full bg-green-600" />
                  {presenceMsg.isOnline}
                </Badge>
              ) : (
                <Badge tone="neutral">{presenceMsg.isOffline}</Badge>
              )}
            </span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{presenceMsg.listTitle}</CardTitle>
        <CardDescription>{isAdmin ? presenceMsg.listDescriptionAdmin : presenceMsg.listDescriptionOwn}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
