import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ConnectionView } from '#contract/connections';
import { useUser } from '#web/lib/auth/get-me';
import { canReadAs } from '#web/lib/auth/permissions';
import { paths } from '#web/lib/paths';
import { connectionsQueryOptions } from '#web/lib/queries/connections';
import { connectionView, useWhatsappSession } from '#web/lib/queries/get-whatsapp-session';
import { cn } from '#web/lib/utils';

const LABELS = { offline: 'Offline', detecting: 'Detectando número...', online: 'Online' } as const;

/** How often the sidebar reads the numbers again when the account has several (the default's state polls every 2 s). */
export const NUMBERS_PILL_POLL_MS = 30_000;

/** With several numbers: how many can send now, of how many ('2 de 3 online'). */
export function numbersSummary(numbers: readonly Pick<ConnectionView, 'status'>[]): {
  online: number;
  total: number;
  tone: 'all' | 'some' | 'none';
} {
  const online = numbers.filter((n) => n.status === 'connected').length;
  const total = numbers.length;
  return { online, total, tone: online === total ? 'all' : online > 0 ? 'some' : 'none' };
}

const DOT = { online: 'bg-brand', detecting: 'bg-amber-500', offline: 'bg-zinc-400' } as const;
const TONE_DOT = { all: DOT.online, some: DOT.detecting, none: DOT.offline } as const;

/**
 * Compact connection state for the sidebar; it also keeps the 2-second session poll running on every
 * page. With one number, that number's state; with several, how many are online, linking to Números.
 */
export function WhatsappStatusPill() {
  const session = useWhatsappSession();
  const { user } = useUser();
  const numbers = useQuery({
    ...connectionsQueryOptions(user !== null && canReadAs(user, 'manager')),
    // Only an account with several numbers has the summary to keep fresh; one number's state is the session poll's.
    refetchInterval: (query) => ((query.state.data?.connections.length ?? 0) >= 2 ? NUMBERS_PILL_POLL_MS : false),
  }).data?.connections;
  if (session.fetchStatus === 'idle' && session.isPending) return null; // not polled for this account
  if (numbers && numbers.length >= 2) {
    const { online, total, tone } = numbersSummary(numbers);
    return (
      <Link
        to={paths.connections}
        className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-xs hover:bg-zinc-200"
        data-testid="whatsapp-numbers-pill"
      >
        <span aria-hidden className={cn('size-2 shrink-0 rounded-full', TONE_DOT[tone])} />
        <span className="text-muted-foreground">WhatsApp:</span>
        <span className="truncate font-medium">
          {online} de {total} online
        </span>
      </Link>
    );
  }
  const view = connectionView(session.data);
  return (
    <div className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-xs">
      <span aria-hidden className={cn('size-2 shrink-0 rounded-full', DOT[view])} />
      <span className="text-muted-foreground">WhatsApp:</span>
      <span className="truncate font-medium">{session.isPending ? '...' : LABELS[view]}</span>
    </div>
  );
}
