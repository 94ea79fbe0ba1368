import { Minus, TrendingDown, TrendingUp } from 'lucide-react';
import { describeChange, formatChange, trendDirection } from '#web/lib/metrics/trend';
import { Badge } from '../ui/badge';

const TREND_LOOK = {
  up: { tone: 'green', icon: TrendingUp },
  down: { tone: 'red', icon: TrendingDown },
  flat: { tone: 'neutral', icon: Minus },
} as const;

/** A percentage change as a badge ('+12,5%' green, '-3%' red); nothing when there is no earlier figure (null). */
export function TrendBadge({ change, testId }: { change: number | null; testId?: string }) {
  if (change === null) return null;
  const look = TREND_LOOK[trendDirection(change)];
  return (
    <Badge tone={look.tone} className="tabular-nums" data-testid={testId}>
      <look.icon aria-hidden />
      <span aria-hidden>{formatChange(change)}</span>
      <span className="sr-only">{describeChange(change)}</span>
    </Badge>
  );
}
