import { Check, CheckCheck, CircleAlert, Clock, ExternalLink, Phone, Reply, StickyNote } from 'lucide-react';
import { useId } from 'react';
import type { ConversationMessage } from '#contract/conversations';
import { messageContentMsg } from '#contract/message-content';
import { MessageImage, WhatsappText } from '#web/components/whatsapp-message';
import { cn } from '#web/lib/utils';
import { isNote, noteView } from '../conversation-team-view';
import {
  type MessageOptionsView,
  messageOptionsView,
  messageStatusView,
  messageTextView,
  messageTimeText,
  type StatusIcon,
  sourceLabel,
} from '../conversation-view';
import { captionText, mediaState, reactionText } from '../message-content-view';
import { ContactCard, LocationCard } from './message-cards';
import { MessageAttachment } from './message-media';

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

const OPTION_ICONS = { url: ExternalLink, phone: Phone, quick_reply: Reply } as const;

/** The buttons the contact got under the text: '1. …' lines of a numbered menu, or WhatsApp buttons. */
function SentOptions({ view }: { view: MessageOptionsView }) {
  const numbered = view.items.some((i) => i.marker);
  const labelId = useId();
  return (
    <div className="grid gap-1" data-testid="message-options">
      <p id={labelId} className="text-xs text-muted-foreground">
        {view.label}
      </p>
      <ul aria-labelledby={labelId} className={cn('grid', numbered ? 'gap-0.5' : 'gap-1')}>
        {view.items.map((item, i) => {
          const Icon = OPTION_ICONS[item.type];
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the options are fixed, in the order sent
              key={i}
              className={
                numbered
                  ? 'flex min-w-0 items-baseline gap-1.5 break-words'
                  : 'flex min-w-0 items-center justify-center gap-1.5 rounded-md border border-emerald-200 bg-card px-2 py-1 text-center font-medium break-words text-brand-ink'
              }
            >
              {item.marker ? (
                <span className="shrink-0 font-semibold tabular-nums">{item.marker}</span>
              ) : (
                <Icon aria-hidden className="size-3.5 shrink-0" />
              )}
              <span className="min-w-0">
                {item.text}
                {item.detail ? <span className="font-normal text-muted-foreground">: {item.detail}</span> : null}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The message this one answers, as WhatsApp quotes it above the text. */
function QuotedReply({ preview }: { preview: string }) {
  return (
    <blockquote
      className="min-w-0 truncate border-l-2 border-brand-ink/60 bg-black/[0.03] py-0.5 pr-1 pl-2 text-xs text-muted-foreground"
      title={preview}
      data-testid="message-reply-to"
    >
      <span className="sr-only">Em resposta a: </span>
      {preview.replace(/\s+/g, ' ').trim() || 'Mensagem'}
    </blockquote>
  );
}

/** A reaction to a message: one compact muted line, not a bubble of its own words. */
function ReactionBubble({ message, now }: { message: ConversationMessage; now: number }) {
  const out = message.direction === 'out';
  return (
    <li className={cn('flex', out ? 'justify-end' : 'justify-start')} data-testid="conversation-message">
      <p
        className="inline-flex max-w-[85%] items-center gap-2 rounded-full border bg-muted px-3 py-1 text-xs text-muted-foreground"
        data-testid="message-reaction"
      >
        <span>{reactionText(message.reaction ?? { emoji: '' })}</span>
        <time dateTime={message.createdAt}>{messageTimeText(message.createdAt, now)}</time>
      </p>
    </li>
  );
}

/**
 * The team's internal note: on our side like an outbound message, in amber, with 'Nota interna' and
 * who wrote it; never sent to the contact, so no delivery ticks.
 */
function NoteBubble({ message, now }: { message: ConversationMessage; now: number }) {
  const { label, author } = noteView(message);
  return (
    <li className="flex justify-end" data-testid="conversation-message">
      <div
        className="grid max-w-[85%] grid-cols-[minmax(0,1fr)] gap-1 rounded-lg rounded-br-sm border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 shadow-xs sm:max-w-[70%]"
        data-testid="message-note"
      >
        <span className="flex min-w-0 items-center gap-1.5 text-xs font-semibold text-amber-900">
          <StickyNote aria-hidden className="size-3.5 shrink-0" />
          <span className="shrink-0">{label}</span>
          {author ? (
            <>
              <span aria-hidden>·</span>
              <span className="min-w-0 truncate font-medium" data-testid="message-note-author">
                {author}
              </span>
            </>
          ) : null}
        </span>
        {/* *bold*, _italic_ and the rest as the team wrote them, as React text (never HTML). */}
        <WhatsappText text={message.text} />
        <div className="flex items-center justify-end text-xs text-amber-900">
          <time dateTime={message.createdAt}>{messageTimeText(message.createdAt, now)}</time>
        </div>
      </div>
    </li>
  );
}

/**
 * One chat bubble: the contact's on the left, ours on the right with who wrote it (the chatbot, the
 * campaign by name, the person by name) and its delivery state. A file, a location or a contact card
 * goes above the text (then its caption); a reaction is one compact line; a note is the team's own.
 */
export function MessageBubble({ message, now }: { message: ConversationMessage; now: number }) {
  if (isNote(message)) return <NoteBubble message={message} now={now} />;
  if (message.reaction && !message.media && !message.location && !message.contactCard) {
    return <ReactionBubble message={message} now={now} />;
  }
  const out = message.direction === 'out';
  const source = sourceLabel(message);
  const body = messageTextView(message);
  const options = messageOptionsView(message);
  const { media, location, contactCard, replyTo, unsupported } = message;
  const content = Boolean(media || location || contactCard);
  const text = content ? captionText(message) : body.text;
  // A sticker stands on its own, as WhatsApp shows it: no bubble around it.
  const bare = media?.kind === 'sticker' && mediaState(media) === 'ready' && !text && !source && !replyTo;
  return (
    <li className={cn('flex', out ? 'justify-end' : 'justify-start')} data-testid="conversation-message">
      <div
        className={cn(
          'grid max-w-[85%] grid-cols-[minmax(0,1fr)] gap-1 rounded-lg text-sm sm:max-w-[70%]',
          bare
            ? 'px-0 py-1'
            : cn(
                'border px-3 py-2 shadow-xs',
                out ? 'rounded-br-sm border-emerald-200 bg-brand-soft' : 'rounded-bl-sm bg-card',
              ),
        )}
      >
        {source ? <span className="text-xs font-semibold text-brand-ink">{source}</span> : null}
        {replyTo ? <QuotedReply preview={replyTo.preview} /> : null}
        {/* The image as the campaign preview shows it: an upload of the account, or a link to another site's. */}
        {message.imageUrl ? <MessageImage src={message.imageUrl} className="max-h-60" /> : null}
        {media ? <MessageAttachment media={media} /> : null}
        {location ? <LocationCard location={location} /> : null}
        {contactCard ? <ContactCard card={contactCard} /> : null}
        {unsupported ? (
          // The server's words ('Mensagem de tipo não suportado: …'), as a note rather than the contact's.
          <p className="break-words text-muted-foreground italic" data-testid="message-unsupported">
            {message.text.trim() || messageContentMsg.unsupported(unsupported)}
          </p>
        ) : text ? (
          // *bold*, _italic_, ~strike~ and ```mono``` as WhatsApp shows them, as React text (never HTML).
          <WhatsappText text={text} />
        ) : null}
        {!content && body.caption ? <p className="text-xs text-muted-foreground">{body.caption}</p> : null}
        {options ? <SentOptions view={options} /> : null}
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
