import { formatPercent } from '#contract/format';

export type TrendDirection = 'up' | 'down' | 'flat';

export function trendDirection(change: number): TrendDirection {
  if (change > 0) return 'up';
  if (change < 0) return 'down';
  return 'flat';
}

/** A percentage change as a badge writes it: 12.5 → '+12,5%', -3 → '-3%', 0 → '0%'. */
export function formatChange(change: number): string {
  const direction = trendDirection(change);
  const magnitude = formatPercent(Math.abs(change));
  if (direction === 'up') return `+${magnitude}`;
  if (direction === 'down') return `-${magnitude}`;
  return magnitude;
}

/** The same change in words, for screen readers: 'alta de 12,5%', 'queda de 3%', 'estável'. */
export function describeChange(change: number): string {
  const direction = trendDirection(change);
  const magnitude = formatPercent(Math.abs(change));
  if (direction === 'up') return `alta de ${magnitude}`;
  if (direction === 'down') return `queda de ${magnitude}`;
  return 'estável';
}
