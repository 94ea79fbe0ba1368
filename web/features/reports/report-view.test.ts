import { describe, expect, it } from 'vitest';
import { deliveryBadgeTone, formatDecimal } from './report-view';

describe('report view', () => {
  it('colours delivery rates as SPEC §9 says, neutral when nothing was sent', () => {
    expect(deliveryBadgeTone(90, 10)).toBe('green');
    expect(deliveryBadgeTone(89.9, 10)).toBe('yellow');
    expect(deliveryBadgeTone(70, 10)).toBe('yellow');
    expect(deliveryBadgeTone(69.9, 10)).toBe('red');
    expect(deliveryBadgeTone(0, 0)).toBe('neutral');
  });

  it('writes averages with one decimal in pt-BR', () => {
    expect(formatDecimal(12.46)).toBe('12,5');
    expect(formatDecimal(1234)).toBe('1.234');
    expect(formatDecimal(0)).toBe('0');
  });
});
