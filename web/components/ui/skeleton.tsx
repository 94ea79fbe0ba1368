import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-zinc-200/80', className)} {...props} />;
}
