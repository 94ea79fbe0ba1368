import { Inbox } from 'lucide-react';
import { Badge } from '#web/components/ui/badge';
import { cn } from '#web/lib/utils';

/** The queue (Filas) a conversation is in, as the list's rows and the pane's header show it. */
export function QueueBadge({ name, className, testId }: { name: string; className?: string; testId: string }) {
  return (
    <Badge tone="purple" className={cn('min-w-0', className)} data-testid={testId}>
      <Inbox aria-hidden className="shrink-0" />
      <span className="sr-only">Fila: </span>
      <span className="truncate">{name}</span>
    </Badge>
  );
}
