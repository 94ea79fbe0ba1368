import { User } from 'lucide-react';
import { initials } from '#web/lib/format';
import { cn } from '#web/lib/utils';

/**
 * A person's initials in a circle, or a neutral person icon when the name gives none (no name, or a
 * phone number in its place). Decorative: the name is always written next to it.
 */
export function Avatar({ name, className }: { name: string | null | undefined; className?: string }) {
  const letters = initials(name);
  return (
    <span
      aria-hidden
      data-testid="avatar"
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-soft text-sm font-semibold text-brand-ink',
        className,
      )}
    >
      {letters ?? <User data-testid="avatar-icon" className="size-1/2" />}
    </span>
  );
}
