import { connectionView, useWhatsappSession } from '../../../lib/queries/get-whatsapp-session';
import { cn } from '../../../lib/utils';

const LABELS = { offline: 'Offline', detecting: 'Detectando número...', online: 'Online' } as const;

/** Compact connection state for the sidebar; it also keeps the 2-second session poll running on every page. */
export function WhatsappStatusPill() {
  const session = useWhatsappSession();
  if (session.fetchStatus === 'idle' && session.isPending) return null; // not polled for this account
  const view = connectionView(session.data);
  return (
    <div className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-xs">
      <span
        aria-hidden
        className={cn(
          'size-2 shrink-0 rounded-full',
          view === 'online' ? 'bg-brand' : view === 'detecting' ? 'bg-amber-500' : 'bg-zinc-400',
        )}
      />
      <span className="text-muted-foreground">WhatsApp:</span>
      <span className="truncate font-medium">{session.isPending ? '...' : LABELS[view]}</span>
    </div>
  );
}
