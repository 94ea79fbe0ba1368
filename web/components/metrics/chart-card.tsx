import { BarChart3, Table2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { cn } from '#web/lib/utils';
import { EmptyState } from '../states';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

export interface ChartColumn<Row> {
  label: string;
  /** The cell's text. */
  cell: (row: Row) => string;
  /** Numbers align right. */
  numeric?: boolean;
}

export interface ChartSeries {
  label: string;
  color: string;
}

/**
 * A chart with its accessible alternative: the drawing sits in a `role="img"` box whose label says
 * what it shows, and 'Ver tabela' opens a table with every number behind it.
 */
export function ChartCard<Row>({
  title,
  description,
  summary,
  series,
  rows,
  rowKey,
  columns,
  empty,
  testId,
  className,
  children,
}: {
  title: string;
  description: string;
  summary: string;
  series: readonly ChartSeries[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly ChartColumn<Row>[];
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: string;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const titleId = useId();

  return (
    <Card className={cn('min-w-0', className)} data-testid={testId}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle id={titleId}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {empty ? null : (
          <Button
            variant="outline"
            size="sm"
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((v) => !v)}
          >
            <Table2 aria-hidden />
            {showTable ? 'Ocultar tabela' : 'Ver tabela'}
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        {empty ? (
          <EmptyState icon={BarChart3} title={empty} className="py-6" />
        ) : (
          <>
            <div role="img" aria-label={summary} data-testid="chart" className="grid gap-3">
              <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                {series.map((s) => (
                  <li key={s.label} className="flex items-center gap-1.5">
                    <span className="size-2.5 rounded-full" style={{ backgroundColor: s.color }} />
                    {s.label}
                  </li>
                ))}
              </ul>
              {/* The drawing itself is hidden from assistive technology: the label above and the table say it all. */}
              <div aria-hidden className="h-64 w-full min-w-0">
                {children}
              </div>
            </div>
            <section
              id={tableId}
              hidden={!showTable}
              aria-labelledby={titleId}
              // A long table scrolls inside its box; keyboard users reach it with Tab.
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1)
              tabIndex={0}
              className="max-h-80 overflow-auto rounded-md border focus-visible:outline-2 focus-visible:outline-ring"
            >
              <table className="w-full text-sm" data-testid="chart-table">
                <caption className="sr-only">{`${title}: tabela`}</caption>
                <thead className="sticky top-0 bg-muted">
                  <tr>
                    {columns.map((c) => (
                      <th
                        key={c.label}
                        scope="col"
                        className={cn(
                          'px-2 py-2 font-medium whitespace-nowrap sm:px-3',
                          c.numeric ? 'text-right' : 'text-left',
                        )}
                      >
                        {c.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {rows.map((row) => (
                    <tr key={rowKey(row)}>
                      {columns.map((c, i) =>
                        i === 0 ? (
                          <th
                            key={c.label}
                            scope="row"
                            className="px-2 py-1.5 text-left font-normal whitespace-nowrap sm:px-3"
                          >
                            {c.cell(row)}
                          </th>
                        ) : (
                          <td
                            key={c.label}
                            className={cn(
                              'px-2 py-1.5 whitespace-nowrap sm:px-3',
                              c.numeric && 'text-right tabular-nums',
                            )}
                          >
                            {c.cell(row)}
                          </td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </>
        )}
      </CardContent>
    </Card>
  );
}
