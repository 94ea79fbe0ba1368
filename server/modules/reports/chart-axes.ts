/*
 * The axes of the report PDF's charts, as pure functions (tested without drawing): the ticks of an
 * axis of counts, and which day labels of the horizontal axis fit without touching each other.
 */

/** Steps an axis of counts may take, per power of ten: 1, 2, 2.5 (from 25 on: never a half) and 5. */
const STEPS = [1, 2, 2.5, 5] as const;

/**
 * The ticks of an axis of counts holding `max`: 0, s, 2s … up to the first multiple of s at or
 * above `max`, where s is the smallest "nice" whole step (1, 2, 2.5 or 5 × 10ⁿ, never below 1) that
 * needs at most `maxIntervals` intervals. Every tick is a whole number and the step never varies,
 * so no value is skipped (a top of 5 in four intervals printed 0, 1, 3, 4, 5). An empty series
 * (max 0) gets 0 and 1.
 */
export function countTicks(max: number, maxIntervals = 5): number[] {
  const target = Math.max(0, Math.ceil(max));
  const intervals = Math.max(1, Math.floor(maxIntervals));
  let step = 1;
  for (let magnitude = 1; step * intervals < target; magnitude *= 10) {
    const fit = STEPS.map((m) => m * magnitude).find((s) => Number.isInteger(s) && s * intervals >= target);
    step = fit ?? 10 * magnitude;
  }
  const top = Math.max(step, Math.ceil(target / step) * step);
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}

/**
 * Which of `n` evenly spaced slots (each `slot` points wide, a label centred on each) get their
 * label, so that labels `labelWidth` points wide keep at least `gap` points between them: every
 * k-th slot, k the fewest slots whose width holds a label and its gap, counted back from the last
 * slot (the newest day is always labelled) — never two neighbours squeezed in at the end.
 */
export function labelledSlots(n: number, slot: number, labelWidth: number, gap = 6): number[] {
  if (n <= 0) return [];
  const every = slot > 0 ? Math.max(1, Math.ceil((labelWidth + gap) / slot)) : n;
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i -= every) out.unshift(i);
  return out;
}
