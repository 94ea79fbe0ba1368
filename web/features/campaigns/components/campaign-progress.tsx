import type { CampaignProgress as Progress } from '#contract/campaigns';
import { countLabel } from '#contract/plural';
import { formatNumber } from '#web/lib/format';
import { cn } from '#web/lib/utils';
import { type ProgressBucket, progressSummary } from '../campaign-view';

const SEGMENT_COLORS: Record<ProgressBucket, string> = {
  read: 'bg-brand-deep',
  delivered: 'bg-brand-strong',
  sent: 'bg-brand',
  failed: 'bg-red-600',
  skipped: 'bg-amber-400',
  pending: 'bg-zinc-300',
};

/** A stacked bar of where every recipient is (read, delivered, sent, failed, skipped, still queued) with its legend. */
export function CampaignProgress({ progress, label }: { progress: Progress; label: string }) {
  const summary = progressSummary(progress);
  const valueText = `${formatNumber(summary.processed)} de ${countLabel(summary.total, 'processada', 'processadas')} (${summary.percent}%)`;
  return (
    <div className="grid gap-2" data-testid="campaign-progress">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">Progresso</span>
        <span className="text-muted-foreground tabular-nums">{valueText}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={summary.percent}
        aria-valuetext={valueText}
        className="flex h-2.5 w-full overflow-hidden rounded-full bg-zinc-200"
      >
        {summary.segments
          .filter((s) => s.key !== 'pending' && s.percent > 0)
          .map((s) => (
            <div
              key={s.key}
              className={cn('h-full transition-[width] duration-500', SEGMENT_COLORS[s.key])}
              style={{ width: `${s.percent}%` }}
            />
          ))}
      </div>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        {summary.segments.map((s) => (
          <div key={s.key} className="flex items-center gap-1.5" data-testid={`progress-${s.key}`}>
            <span aria-hidden className={cn('size-2.5 rounded-full', SEGMENT_COLORS[s.key])} />
            <dt>{s.label}</dt>
            <dd className="font-medium text-foreground tabular-nums">{formatNumber(s.count)}</dd>
          </div>
        ))}
        <div className="flex items-center gap-1.5">
          <dt>Total</dt>
          <dd className="font-medium text-foreground tabular-nums">{formatNumber(summary.total)}</dd>
        </div>
      </dl>
    </div>
  );
}
