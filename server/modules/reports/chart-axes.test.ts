import { describe, expect, it } from 'vitest';
import { countTicks, labelledSlots } from './chart-axes';

describe('countTicks: the vertical axis of a count', () => {
  it('counts small maxima one by one, never skipping a value', () => {
    // The report drew 0, 1, 3, 4, 5 for 'Respostas do bot' with at most 5 replies a day.
    expect(countTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(countTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(1)).toEqual([0, 1]);
  });

  it('gives an empty series an axis of 0 and 1', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(-2)).toEqual([0, 1]);
  });

  it('takes the smallest nice whole step that fits in five intervals', () => {
    expect(countTicks(6)).toEqual([0, 2, 4, 6]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(11)).toEqual([0, 5, 10, 15]);
    expect(countTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(countTicks(48)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(countTicks(120)).toEqual([0, 25, 50, 75, 100, 125]);
    expect(countTicks(1234)).toEqual([0, 250, 500, 750, 1000, 1250]);
    expect(countTicks(2400)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
  });

  it('always reaches the maximum, in whole evenly spaced ticks, for any count', () => {
    for (let max = 0; max <= 5000; max += max < 200 ? 1 : 37) {
      const ticks = countTicks(max);
      const step = ticks[1] - ticks[0];
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      ticks.forEach((t, i) => {
        expect(Number.isInteger(t), `${max}: ${ticks}`).toBe(true);
        expect(t).toBe(i * step);
      });
      // No more room than a step above the maximum.
      if (max > 0) expect((ticks.at(-1) ?? 0) - max).toBeLessThan(step);
    }
  });
});

describe('labelledSlots: which day labels fit', () => {
  // The report's chart: 459 points wide, labels 'dd/mm' of Helvetica 7 pt (about 17.5 points).
  const width = 459;
  const label = 17.5;
  const spaced = (n: number, picked: number[], gap: number) => {
    const slot = width / n;
    for (let i = 1; i < picked.length; i++) {
      // Centre to centre at least a label's width and the gap.
      expect((picked[i] - picked[i - 1]) * slot).toBeGreaterThanOrEqual(label + gap);
    }
  };

  it('labels every day while they fit', () => {
    expect(labelledSlots(3, width / 3, label)).toEqual([0, 1, 2]);
    expect(labelledSlots(7, width / 7, label)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('thins 30 days to every other day, counted back from the last one', () => {
    const picked = labelledSlots(30, width / 30, label);
    expect(picked).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29]);
    spaced(30, picked, 6);
    // The old rule labelled day 28 and the last, 29, side by side: '29/1130/11'.
    expect(picked).not.toContain(28);
  });

  it('thins 90 days so that no two labels touch, the last day always labelled', () => {
    const picked = labelledSlots(90, width / 90, label);
    expect(picked.at(-1)).toBe(89);
    expect(picked[0]).toBeLessThan(picked[1] - picked[0]);
    expect(picked.length).toBe(18);
    spaced(90, picked, 6);
  });

  it('handles a year, a single day and nothing', () => {
    const picked = labelledSlots(366, width / 366, label);
    spaced(366, picked, 6);
    expect(picked.at(-1)).toBe(365);
    expect(labelledSlots(1, width, label)).toEqual([0]);
    expect(labelledSlots(0, width, label)).toEqual([]);
  });
});
