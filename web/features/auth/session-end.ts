import type { QueryClient } from '@tanstack/react-query';
import type { User } from '#contract/auth';
import { setSessionEndListener } from '#web/lib/api';
import { meQueryKey, publicConfigQueryKey } from '#web/lib/query-keys';

export type SessionEndReason = 'expired' | null;

let reason: SessionEndReason = null;

/** Why the last session ended, so the guard can send the user to /login?expired=1. */
export function sessionEndReason(): SessionEndReason {
  return reason;
}

export function setSessionEndReason(next: SessionEndReason): void {
  reason = next;
}

/**
 * When any call says the session is gone (401, or 403 DEMO_EXPIRED) while a
 * user is cached, forget the user and the data: the route guard then moves to
 * the login page, with the expiry notice for demo accounts.
 */
export function watchSessionEnd(queryClient: QueryClient): () => void {
  setSessionEndListener(({ code }) => {
    const user = queryClient.getQueryData<User | null>(meQueryKey);
    if (!user) return;
    setSessionEndReason(code === 'DEMO_EXPIRED' || user.accountType === 'demo' ? 'expired' : null);
    queryClient.setQueryData(meQueryKey, null);
    const keep = new Set<unknown>([meQueryKey[0], publicConfigQueryKey[0]]);
    queryClient.removeQueries({ predicate: (q) => !keep.has(q.queryKey[0]) });
  });
  return () => setSessionEndListener(undefined);
}
