import { Skeleton } from './ui/skeleton';

/** Placeholder while a lazily loaded page arrives. */
export function PageSkeleton() {
  return (
    <div role="status" aria-label="Carregando página" className="grid gap-6">
      <Skeleton className="h-28 w-full" />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-28" />
        ))}
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
