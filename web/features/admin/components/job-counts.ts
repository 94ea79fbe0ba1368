import type { JobState } from '#contract/admin';

/** The jobs' counts as a table: one row per job name (sorted), one figure per state (0 when absent). */
export function jobCountRows(
  counts: readonly { name: string; state: JobState; count: number }[],
): [name: string, byState: Record<JobState, number>][] {
  const byName = new Map<string, Record<JobState, number>>();
  for (const c of counts) {
    const row = byName.get(c.name) ?? { queued: 0, running: 0, done: 0, dead: 0 };
    row[c.state] += c.count;
    byName.set(c.name, row);
  }
  return [...byName.entries()].sort(([a], [b]) => a.localeCompare(b));
}
