import { describe, expect, it } from 'vitest';
import { describeChange, formatChange, trendDirection } from './trend';

describe('trend badges', () => {
  it('write the change in pt-BR with its sign', () => {
    expect(formatChange(12.5)).toBe('+12,5%');
    expect(formatChange(-3)).toBe('-3%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(1234.5)).toBe('+1.234,5%');
  });

  it('go up green, down red, flat grey, and say so in words', () => {
    expect(trendDirection(0.1)).toBe('up');
    expect(trendDirection(-0.1)).toBe('down');
    expect(trendDirection(0)).toBe('flat');
    expect(describeChange(12.5)).toBe('alta de 12,5%');
    expect(describeChange(-3)).toBe('queda de 3%');
    expect(describeChange(0)).toBe('estável');
  });
});
