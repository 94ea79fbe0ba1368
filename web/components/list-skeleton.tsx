import type { ReactNode } from 'react';
import { Skeleton } from './ui/skeleton';

/**
 * A list page's placeholder while its rows load (Contatos, Grupos, Campanhas): announced as busy with
 * `label` ('Carregando contatos'), `rows` grey rows, or `renderRow(i)` for rows shaped like the page's cards.
 */
export function ListSkeleton({
  label,
  rows,
  className = 'grid gap-3 p-4',
  renderRow = (i) => <Skeleton key={i} className="h-12 w-full" />,
}: {
  label: string;
  rows: number;
  className?: string;
  renderRow?: (i: number) => ReactNode;
}) {
  return (
    <div className={className} role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => renderRow(i))}
    </div>
  );
}
