import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils';

// Tones pair a -100 background with -800 text so every badge meets WCAG AA.
export const badgeVariants = cva(
  'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap [&_svg]:size-3',
  {
    variants: {
      tone: {
        neutral: 'border-zinc-200 bg-zinc-100 text-zinc-800',
        brand: 'border-emerald-200 bg-brand-soft text-brand-ink',
        green: 'border-green-200 bg-green-100 text-green-800',
        yellow: 'border-amber-200 bg-amber-100 text-amber-900',
        blue: 'border-blue-200 bg-blue-100 text-blue-800',
        red: 'border-red-200 bg-red-100 text-red-800',
        purple: 'border-violet-200 bg-violet-100 text-violet-800',
        outline: 'border-border bg-card text-foreground',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

export function Badge({ className, tone, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
