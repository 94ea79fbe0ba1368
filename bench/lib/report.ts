/** One measured figure checked against its target. */
export interface Check {
  metric: string;
  measured: number;
  unit: string;
  /** `min`: the figure must reach the limit (a floor); `max`: it must stay below it (a ceiling). */
  kind: 'min' | 'max';
  limit: number;
  pass: boolean;
}

export interface BenchResult {
  name: string;
  checks: Check[];
  /** Figures printed for information, not checked. */
  info: Record<string, number | string>;
  error?: string;
}

export function floor(metric: string, measured: number, limit: number, unit: string): Check {
  return { metric, measured, unit, kind: 'min', limit, pass: Number.isFinite(measured) && measured >= limit };
}

export function ceiling(metric: string, measured: number, limit: number, unit: string): Check {
  return { metric, measured, unit, kind: 'max', limit, pass: Number.isFinite(measured) && measured < limit };
}

/**
 * How far a figure is from its target, as a factor where ≥ 1 means it passes: measured / floor for
 * floors, ceiling / measured for ceilings.
 */
export function margin(check: Check): number {
  if (check.kind === 'min')
    return check.limit === 0 ? (check.measured >= 0 ? Number.POSITIVE_INFINITY : 0) : check.measured / check.limit;
  return check.measured === 0 ? Number.POSITIVE_INFINITY : check.limit / check.measured;
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : String(n);
  return Number.isInteger(n)
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function withUnit(n: number, unit: string): string {
  return unit ? `${fmt(n)} ${unit}` : fmt(n);
}

export function describeCheck(check: Check): string {
  const target = `${check.kind === 'min' ? '≥' : '<'} ${withUnit(check.limit, check.unit)}`;
  const m = margin(check);
  return `${check.metric}: ${withUnit(check.measured, check.unit)} (target ${target}; ${fmt(m)}× ${check.kind === 'min' ? 'the floor' : 'headroom under the ceiling'}) ${check.pass ? 'PASS' : 'FAIL'}`;
}

export function printChecks(checks: readonly Check[]): void {
  for (const check of checks) console.log(`  ${describeCheck(check)}`);
}

/** The final table: one row per checked figure. */
export function summaryTable(results: readonly BenchResult[]): string {
  const header = ['Benchmark', 'Metric', 'Measured', 'Target', 'Margin', 'Result'];
  const rows: string[][] = [];
  for (const r of results) {
    if (r.error) rows.push([r.name, 'run failed', '-', '-', '-', 'FAIL']);
    for (const c of r.checks) {
      rows.push([
        r.name,
        c.metric,
        withUnit(c.measured, c.unit),
        `${c.kind === 'min' ? '≥' : '<'} ${withUnit(c.limit, c.unit)}`,
        `${fmt(margin(c))}×`,
        c.pass ? 'PASS' : 'FAIL',
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
