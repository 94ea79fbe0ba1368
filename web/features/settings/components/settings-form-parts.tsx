/** The building blocks the settings forms share: save button, switch row, loading and error states. */
import type { UseQueryResult } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { msg } from '#contract/messages';
import { LockedState } from '#web/components/locked-state';
import { ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';

/** The save button of a settings form; read-only for demo accounts, with the reason. */
export function SaveButton({
  pending,
  readOnly,
  children = 'Salvar alterações',
}: {
  pending: boolean;
  readOnly: boolean;
  children?: ReactNode;
}) {
  const hintId = useId();
  if (readOnly) {
    return (
      <span className="inline-flex flex-col gap-1">
        <Button type="button" aria-disabled="true" aria-describedby={hintId} onClick={(e) => e.preventDefault()}>
          <Save aria-hidden />
          {children}
        </Button>
        <span id={hintId} className="text-xs text-muted-foreground">
          {msg.roles.demoReadOnly}
        </span>
      </span>
    );
  }
  return (
    <Button type="submit" disabled={pending}>
      {pending ? <Spinner /> : <Save aria-hidden />}
      {pending ? 'Salvando...' : children}
    </Button>
  );
}

export { SwitchRow } from '#web/components/ui/switch-row';

export function FormSkeleton() {
  return (
    <div className="grid gap-4" aria-hidden>
      {[0, 1, 2].map((i) => (
        <div key={i} className="grid gap-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  );
}

export function LoadError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <ErrorState
      title="Não foi possível carregar as configurações"
      description="Verifique sua conexão e tente novamente."
      onRetry={onRetry}
      retrying={retrying}
    />
  );
}

/** One settings section: a card with its title and description around the form. */
export function SettingsCard({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/**
 * A settings section whose form edits what a query loads: the plan's lock, then a skeleton while it
 * loads, the error with a retry, and the form once the data is there.
 */
export function LoadedSettingsCard<T>({
  title,
  description,
  query,
  locked = false,
  children,
}: {
  title: string;
  description: ReactNode;
  query: UseQueryResult<T>;
  locked?: boolean;
  children: (data: T) => ReactNode;
}) {
  return (
    <SettingsCard title={title} description={description}>
      {locked ? (
        <LockedState />
      ) : query.isPending ? (
        <FormSkeleton />
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        children(query.data)
      )}
    </SettingsCard>
  );
}
