import { describe, expect, it } from 'vitest';
import { formatSecret, recoveryCodesText } from './two-factor';

describe('formatSecret', () => {
  it('groups the secret by four characters', () => {
    expect(formatSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
  });
  it('keeps a short last group, and cleans spaces and case', () => {
    expect(formatSecret(' abcd efgh ij ')).toBe('ABCD EFGH IJ');
    expect(formatSecret('')).toBe('');
  });
});

describe('recoveryCodesText', () => {
  it('puts one code a line under the heading', () => {
    expect(recoveryCodesText(['AAAA-BBBB', 'CCCC-DDDD'], 'Códigos')).toBe('Códigos\n\nAAAA-BBBB\nCCCC-DDDD');
  });
});
