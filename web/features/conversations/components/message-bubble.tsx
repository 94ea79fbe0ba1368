import { Check, CheckCheck, CircleAlert, Clock } from 'lucide-react';
import type { ConversationMessage } from '../../../../contract/conversations';
import { cn } from '../../../lib/utils';
import { messageStatusView, messageTimeText, type StatusIcon, sourceLabel } from '../conversation-view';

const STATUS_ICONS: Record<StatusIcon, { Icon: typeof Check; className: string }> = {
  clock: { Icon: Clock, className: 'text-muted-foreground' },
  check: { Icon: Check, className: 'text-muted-foreground' },
  double: { Icon: CheckCheck, className: 'text-muted-foreground' },
  read: { Icon: CheckCheck, className: 'text-sky-700' },
  failed: { Icon: CircleAlert, className: 'text-red-700' },
};

function DeliveryState({ message }: { message: ConversationMessage }) {
  const view = messageStatusView(message.status);
  if (!view.label) return null;
  const icon = view.icon ? STATUS_ICONS[view.icon] : null;
  const failed = message.status === 'failed';
  return (
    <span className={cn('inline-flex items-center gap-1', failed && 'font-medium text-red-700')} title={view.label}>
      {icon ? <icon.Icon aria-hidden className={cn('size-3.5', icon.className)} /> : null}
      <span className={failed || !icon ? undefined : 'sr-only'}>{view.label}</span>
    </span>
  );
}

/** One chat bubble: the contact's on the left, ours on the right with who sent it and its delivery state. */
export function MessageBubble({ message, now }: { message: ConversationMessage; now: number }) {
  const out = message.direction === 'out';
  const source = sourceLabel(message);
  return (
    <li className={cn('flex', out ? 'justify-end' : 'justify-start')} data-testid="conversation-message">
      <div
        className={cn(
          'grid max-w-[85%] gap-1 rounded-lg border px-3 py-2 text-sm shadow-xs sm:max-w-[70%]',
          out ? 'rounded-br-sm border-emerald-200 bg-brand-soft' : 'rounded-bl-sm bg-card',
        )}
      >
        {source ? <span className="text-xs font-semibold text-brand-ink">{source}</span> : null}
        {message.imageUrl ? (
          <a href={message.imageUrl} target="_blank" rel="noopener noreferrer" className="block w-fit">
            <img
              src={message.imageUrl}
              alt={out ? 'Imagem enviada' : 'Imagem recebida'}
              loading="lazy"
              className="max-h-60 max-w-full rounded-md object-cover"
            />
          </a>
        ) : null}
        {message.text ? <p className="break-words whitespace-pre-wrap">{message.text}</p> : null}
        <div className="flex items-center justify-end gap-2 text-xs text-muted-foreground">
          <time dateTime={message.createdAt}>{messageTimeText(message.createdAt, now)}</time>
          {out ? <DeliveryState message={message} /> : null}
        </div>
        {message.status === 'failed' && message.failureReason ? (
          <p className="text-xs text-red-700">{message.failureReason}</p>
        ) : null}
      </div>
    </li>
  );
}
