import { describe, expect, it } from 'vitest';
import { formatDecimal } from './report-view';

// The delivery rate's colour is the contract's `deliveryTone` (contract/metrics.test.ts).
describe('report view', () => {
  it('writes averages with one decimal in pt-BR', () => {
    expect(formatDecimal(12.46)).toBe('12,5');
    expect(formatDecimal(1234)).toBe('1.234');
    expect(formatDecimal(0)).toBe('0');
  });
});
