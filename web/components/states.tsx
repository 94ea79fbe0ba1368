import { CircleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { msg } from '#contract/messages';
import { cn } from '#web/lib/utils';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

/** The spec's full-screen 'Carregando...' while the session loads. */
export function FullPageLoader() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-dvh flex-col items-center justify-center gap-3 text-muted-foreground"
    >
      <Spinner className="size-8 text-brand-strong" />
      <span className="text-sm font-medium">{msg.generic.loading}</span>
    </div>
  );
}

/** An empty data view: what is missing and the action that fills it. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  description?: string;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-3 px-4 py-8 text-center', className)}>
      <span className="flex size-12 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
        <Icon aria-hidden className="size-6" />
      </span>
      <div className="grid gap-1">
        <p className="font-medium text-foreground">{title}</p>
        {description ? <p className="max-w-sm text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}

/** A failed data view: what happened and a way to try again. */
export function ErrorState({
  title,
  description = 'Verifique sua conexão e tente novamente.',
  onRetry,
  retrying = false,
  className,
}: {
  title: string;
  description?: string;
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn('flex flex-col items-center justify-center gap-3 px-4 py-8 text-center', className)}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-red-100 text-red-700">
        <CircleAlert aria-hidden className="size-6" />
      </span>
      <div className="grid gap-1">
        <p className="font-medium text-foreground">{title}</p>
        <p className="max-w-sm text-sm text-muted-foreground">{description}</p>
      </div>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
          {retrying ? <Spinner /> : null}
          Tentar novamente
        </Button>
      ) : null}
    </div>
  );
}
