import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { countLabel } from '#contract/plural';
import type { QuickReply } from '#contract/quick-replies';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadAs } from '#web/lib/auth/permissions';
import { useQuickReplies } from '#web/lib/queries/get-quick-replies';
import {
  applyQuickReply,
  fillQuickReply,
  matchingQuickReplies,
  type QuickReplyContact,
  type SlashQuery,
  slashQueryAt,
} from '#web/lib/quick-reply-fill';
import { toastError } from '#web/lib/toasts';
import { cn } from '#web/lib/utils';

/** At most this many characters of a reply's text in its option. */
const EXCERPT_MAX = 120;

const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_MAX ? `${line.slice(0, EXCERPT_MAX - 1)}…` : line;
};

/**
 * The quick replies of a text box: typing `/` at the start or after a space lists the replies whose
 * shortcut starts with what follows it (the list is read once and filtered here); ArrowUp/ArrowDown
 * move, Enter or Tab pick, Escape closes. Picking replaces the `/query` with the reply's text filled
 * for the contact, and leaves the caret after it. The box keeps the focus throughout: it points at
 * the option with `aria-activedescendant`.
 *
 * `setText` writes the box's new value (the form's field); a text that would pass `maxLength` is
 * not written, and a toast says why (`tooLong`).
 */
export function useQuickReplyPicker({
  contact,
  setText,
  onMedia,
  maxLength,
  tooLong,
}: {
  contact: QuickReplyContact;
  setText: (text: string) => void;
  /** A reply with a file: the box attaches it (a box writing a note leaves it out). */
  onMedia?: (media: NonNullable<QuickReply['media']>) => void;
  maxLength: number;
  tooLong: string;
}) {
  const user = useAuthenticatedUser();
  const replies = useQuickReplies(canReadAs(user, 'agent'));
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const [slash, setSlash] = useState<SlashQuery | null>(null);
  /** Where the `/` closed with Escape stands: its list stays closed until that slash is gone. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();

  const all = replies.data;
  const matches = useMemo(() => (slash && all ? matchingQuickReplies(all, slash.query) : []), [all, slash]);
  const open = slash !== null && slash.start !== dismissed && matches.length > 0;
  const activeIndex = Math.max(0, Math.min(active, matches.length - 1));
  const optionId = (i: number) => `${listId}-option-${i}`;

  /** Reads where the caret stands after a change, a click or a move. */
  const track = (el: HTMLTextAreaElement) => {
    const next = el.selectionStart === el.selectionEnd ? slashQueryAt(el.value, el.selectionStart) : null;
    if (next?.start !== slash?.start || next?.query !== slash?.query) setActive(0);
    if (!next || next.start !== dismissed) setDismissed(null);
    setSlash(next);
  };

  const close = () => setSlash(null);

  const pick = (reply: QuickReply) => {
    const el = inputRef.current;
    if (!el) return;
    const at = slashQueryAt(el.value, el.selectionStart) ?? slash;
    if (!at) return;
    const next = applyQuickReply(el.value, at, fillQuickReply(reply.text, contact));
    close();
    if (next.text.length > maxLength) {
      toastError(tooLong);
      return;
    }
    setText(next.text);
    if (reply.media) onMedia?.(reply.media);
    el.focus();
    el.setSelectionRange(next.caret, next.caret);
  };

  /** The box's keys while the list is open; true when the key was the list's (the box does nothing more). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    const n = matches.length;
    switch (event.key) {
      case 'ArrowDown':
        setActive((activeIndex + 1) % n);
        break;
      case 'ArrowUp':
        setActive((activeIndex - 1 + n) % n);
        break;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        pick(matches[activeIndex]);
        break;
      case 'Escape':
        setDismissed(slash?.start ?? null);
        break;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  return {
    inputRef,
    track,
    onKeyDown,
    /** Whether the account has quick replies (the box's hint then mentions them). */
    available: Boolean(all?.length),
    inputProps: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? optionId(activeIndex) : undefined,
      onSelect: (event: { currentTarget: HTMLTextAreaElement }) => track(event.currentTarget),
    },
    /** Closes the list (the box lost the focus, say) until the caret moves again. */
    close,
    listProps: {
      id: listId,
      open,
      matches,
      activeIndex,
      optionId,
      onHover: setActive,
      onPick: pick,
    },
  };
}

/** The list of `useQuickReplyPicker` (its `listProps`), above the text box it belongs to. */
export function QuickReplySuggestions({
  id,
  open,
  matches,
  activeIndex,
  optionId,
  onHover,
  onPick,
}: ReturnType<typeof useQuickReplyPicker>['listProps']) {
  const activeRef = useRef<HTMLDivElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the highlighted option changes
  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [activeIndex, open]);

  return (
    <>
      {open ? (
        <div
          id={id}
          role="listbox"
          aria-label="Respostas rápidas"
          className="absolute inset-x-0 bottom-full z-20 mb-1 grid max-h-60 gap-0.5 overflow-y-auto rounded-md border bg-card p-1 text-card-foreground shadow-lg"
        >
          {matches.map((reply, i) => (
            // The box keeps the focus and the keys (aria-activedescendant); a click picks too.
            // biome-ignore lint/a11y/useKeyWithClickEvents: the text box handles the keyboard for the list
            <div
              key={reply.id}
              ref={i === activeIndex ? activeRef : undefined}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === activeIndex}
              className={cn(
                'grid cursor-pointer gap-0.5 rounded px-2 py-1.5 text-sm',
                i === activeIndex ? 'bg-brand-soft text-brand-ink' : 'hover:bg-muted',
              )}
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => onHover(i)}
              onClick={() => onPick(reply)}
            >
              <span className="truncate font-mono font-medium">/{reply.shortcut}</span>
              <span className="truncate text-xs text-muted-foreground">{excerpt(reply.text)}</span>
            </div>
          ))}
        </div>
      ) : null}
      <p className="sr-only" aria-live="polite">
        {open
          ? `${countLabel(matches.length, 'resposta rápida', 'respostas rápidas')}. Use as setas e Enter para inserir.`
          : ''}
      </p>
    </>
  );
}
