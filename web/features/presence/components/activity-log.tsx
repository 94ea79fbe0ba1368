import { History } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { ACTIVITY_PAGE_DEFAULT, type ActivityEvent, activityLabels, activityMsg } from '#contract/activity';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatDateTime } from '#web/lib/format';
import { useActivity } from '../api/get-activity';

function who(e: ActivityEvent, scope: 'account' | 'all'): string | null {
  const actor = e.actorId === null ? activityMsg.system : e.actorId === e.userId ? null : e.actorName;
  if (scope === 'all') return actor && actor !== e.userName ? `${e.userName} · ${actor}` : e.userName;
  return actor;
}

/** Verificação → Atividade: the account's event log (every account's for an administrator), paged, newest first. */
export function ActivityLog() {
  const [page, setPage] = useState(1);
  const activity = useActivity(page, ACTIVITY_PAGE_DEFAULT, true);
  const data = activity.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  let body: ReactNode;
  if (activity.isPending) {
    body = (
      <div className="grid gap-3" role="status" aria-busy="true" aria-label="Carregando atividade">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  } else if (activity.isError) {
    body = (
      <ErrorState
        title={activityMsg.loadError}
        onRetry={() => void activity.refetch()}
        retrying={activity.isFetching}
      />
    );
  } else if (activity.data.events.length === 0) {
    body = <EmptyState icon={History} title={activityMsg.empty} description={activityMsg.emptyHint} />;
  } else {
    const scope = activity.data.scope;
    body = (
      <ol
        className="grid divide-y rounded-md border"
        aria-label={activityMsg.title}
        aria-busy={activity.isPlaceholderData}
      >
        {activity.data.events.map((e) => {
          const by = who(e, scope);
          return (
            <li
              key={e.id}
              data-testid="activity-event"
              className="grid gap-0.5 px-3 py-2 text-sm sm:grid-cols-[1fr_auto] sm:gap-x-4"
            >
              <span className="min-w-0">
                <span className="font-medium">{activityLabels[e.kind]}</span>
                {e.detail ? <span className="break-words text-muted-foreground"> — {e.detail}</span> : null}
              </span>
              <span className="flex flex-wrap gap-x-2 text-xs text-muted-foreground sm:justify-end sm:text-right">
                {by ? <span>{by}</span> : null}
                <time dateTime={e.createdAt} className="tabular-nums">
                  {formatDateTime(e.createdAt)}
                </time>
              </span>
            </li>
          );
        })}
      </ol>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{activityMsg.title}</CardTitle>
        <CardDescription>
          {data?.scope === 'all' ? `${activityMsg.allAccounts}. ` : ''}
          {activityMsg.description}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {body}
        {data && pages > 1 ? (
          <nav className="flex items-center justify-between gap-2" aria-label="Páginas da atividade">
            <Button
              variant="outline"
              size="sm"
              disabled={page <= 1 || activity.isFetching}
              onClick={() => setPage((p) => Math.max(1, p - 1))}
            >
              {activityMsg.previous}
            </Button>
            <span className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
              {activityMsg.pageOf(page, pages)}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={page >= pages || activity.isFetching}
              onClick={() => setPage((p) => Math.min(pages, p + 1))}
            >
              {activityMsg.next}
            </Button>
          </nav>
        ) : null}
      </CardContent>
    </Card>
  );
}
