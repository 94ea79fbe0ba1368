import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PERIOD_CHOICE,
  periodFromSearch,
  periodSearch,
  periodToSearch,
  presetFromValue,
  presetPeriod,
  resolvePeriod,
  today,
} from './period';

describe('period of the analytics tab and the Relatórios page', () => {
  it('counts São Paulo days: late evening in Brazil is still the same day', () => {
    // 2026-03-01 01:30 UTC is 2026-02-28 22:30 in São Paulo.
    expect(today(new Date('2026-03-01T01:30:00Z'))).toBe('2026-02-28');
    expect(today(new Date('2026-03-01T03:30:00Z'))).toBe('2026-03-01');
  });

  it('takes the last N days, today included', () => {
    expect(presetPeriod(7, '2026-03-03')).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(presetPeriod(30, '2026-03-30')).toEqual({ from: '2026-03-01', to: '2026-03-30' });
    expect(resolvePeriod({ kind: 'preset', days: 90 }, '2026-12-31')).toEqual({ from: '2026-10-03', to: '2026-12-31' });
    expect(resolvePeriod({ kind: 'custom', from: '2026-01-01', to: '2026-01-31' }, '2026-12-31')).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
  });

  it('reads the URL: ?periodo= presets, ?from=&to= custom ranges, the last 30 days otherwise', () => {
    const read = (q: string, allowCustom = true) => periodFromSearch(new URLSearchParams(q), { allowCustom });
    expect(read('')).toEqual(DEFAULT_PERIOD_CHOICE);
    expect(DEFAULT_PERIOD_CHOICE).toEqual({ kind: 'preset', days: 30 });
    expect(read('periodo=7')).toEqual({ kind: 'preset', days: 7 });
    expect(read('periodo=90')).toEqual({ kind: 'preset', days: 90 });
    expect(read('periodo=15')).toEqual(DEFAULT_PERIOD_CHOICE);
    expect(read('periodo=abc')).toEqual(DEFAULT_PERIOD_CHOICE);
    expect(read('from=2026-01-01&to=2026-01-31')).toEqual({ kind: 'custom', from: '2026-01-01', to: '2026-01-31' });
    // A custom range wins over a preset; a bad one falls back to it.
    expect(read('periodo=7&from=2026-01-01&to=2026-01-31')).toEqual({
      kind: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(read('periodo=7&from=2026-02-01&to=2026-01-31')).toEqual({ kind: 'preset', days: 7 });
    expect(read('from=2026-02-30&to=2026-03-01')).toEqual(DEFAULT_PERIOD_CHOICE);
    expect(read('from=2026-01-01')).toEqual(DEFAULT_PERIOD_CHOICE);
    // The analytics tab offers presets only.
    expect(read('from=2026-01-01&to=2026-01-31', false)).toEqual(DEFAULT_PERIOD_CHOICE);
  });

  it('writes the URL, keeping the other parameters', () => {
    const prev = new URLSearchParams('tab=analytics&from=2026-01-01&to=2026-01-31');
    expect(periodToSearch({ kind: 'preset', days: 7 }, prev).toString()).toBe('tab=analytics&periodo=7');
    expect(
      periodToSearch(
        { kind: 'custom', from: '2026-02-01', to: '2026-02-10' },
        new URLSearchParams('periodo=30'),
      ).toString(),
    ).toBe('from=2026-02-01&to=2026-02-10');
    expect(periodSearch({ from: '2026-02-01', to: '2026-02-10' })).toBe('from=2026-02-01&to=2026-02-10');
  });

  it('reads the select: presets only', () => {
    expect(presetFromValue('7')).toBe(7);
    expect(presetFromValue('90')).toBe(90);
    expect(presetFromValue('personalizado')).toBeNull();
    expect(presetFromValue('8')).toBeNull();
  });
});
