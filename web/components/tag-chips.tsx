import { Check } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { ContactTagCount } from '#contract/contacts';
import { countLabel } from '#contract/plural';
import { formatNumber } from '#web/lib/format';
import { cn } from '#web/lib/utils';
import { Skeleton } from './ui/skeleton';

/** Tags shown before 'Mostrar todas': enough for a glance, short enough for a phone. */
const FIRST_TAGS = 12;

/**
 * One tag as a toggle: its name and how many contacts carry it (read out as 'vip, 12 contatos').
 * Pressed, it is filled with the brand's soft green and shows a tick.
 */
export function TagChip({
  tag,
  count,
  pressed,
  onPressedChange,
}: {
  tag: string;
  count?: number;
  pressed: boolean;
  onPressedChange: (pressed: boolean) => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      // The chip's parts are flex items, which a name computed from its content would space apart.
      aria-label={count === undefined ? undefined : `${tag}, ${countLabel(count, 'contato', 'contatos')}`}
      onClick={() => onPressedChange(!pressed)}
      className={cn(
        'inline-flex h-8 max-w-full items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        pressed
          ? 'border-brand-strong bg-brand-soft text-brand-ink'
          : 'border-input bg-card text-foreground hover:bg-muted',
      )}
    >
      {pressed ? <Check aria-hidden className="size-3.5 shrink-0" /> : null}
      <span className="truncate">{tag}</span>
      {count === undefined ? null : (
        <span
          className={cn(
            'rounded-full px-1.5 text-xs tabular-nums',
            pressed ? 'bg-white/70 text-brand-ink' : 'bg-muted text-muted-foreground',
          )}
        >
          {formatNumber(count)}
        </span>
      )}
    </button>
  );
}

/**
 * The account's tags as chips with their counts, most used first: the first few, then all on request
 * (a pressed tag is always shown). Skeletons while they load.
 */
export function TagChipList({
  tags,
  isPressed,
  onToggle,
  label,
  leading,
}: {
  tags: ContactTagCount[] | undefined;
  isPressed: (tag: string) => boolean;
  onToggle: (tag: string, pressed: boolean) => void;
  /** The group's accessible name ('Filtrar por tag'). */
  label: string;
  /** Chips before the tags ('Todos'). */
  leading?: ReactNode;
}) {
  const [showAll, setShowAll] = useState(false);
  if (tags === undefined) {
    return (
      <div className="flex flex-wrap gap-2" role="status" aria-busy="true" aria-label="Carregando tags">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-8 w-20 rounded-full" />
        ))}
      </div>
    );
  }
  const shown = showAll ? tags : tags.filter((t, i) => i < FIRST_TAGS || isPressed(t.tag));
  const hidden = tags.length - shown.length;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={label}>
      {leading ? <li>{leading}</li> : null}
      {shown.map((t) => (
        <li key={t.tag} className="max-w-full">
          <TagChip tag={t.tag} count={t.count} pressed={isPressed(t.tag)} onPressedChange={(p) => onToggle(t.tag, p)} />
        </li>
      ))}
      {hidden > 0 || showAll ? (
        <li>
          <button
            type="button"
            className="h-8 rounded-full px-3 text-sm font-medium text-brand-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            onClick={() => setShowAll((v) => !v)}
          >
            {showAll ? 'Mostrar menos' : `Mostrar todas (${formatNumber(tags.length)})`}
          </button>
        </li>
      ) : null}
    </ul>
  );
}
