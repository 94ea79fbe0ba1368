import { describe, expect, it } from 'vitest';
import { datedName, tableTime } from './download';

describe('export cells and names', () => {
  it('writes a time as São Paulo wall-clock time with the offset of that day', () => {
    expect(tableTime(new Date('2026-11-25T19:22:14.459Z'))).toBe('2026-11-25 16:22:14 -03:00');
    expect(tableTime('2026-11-26T02:59:59.999Z')).toBe('2026-11-25 23:59:59 -03:00');
    // Summer time until 2019.
    expect(tableTime(new Date('2018-12-25T12:00:00Z'))).toBe('2018-12-25 10:00:00 -02:00');
    expect(tableTime(null)).toBe('');
    // What it writes reads back as the same instant.
    expect(new Date(tableTime(new Date('2026-11-25T19:22:14Z'))).toISOString()).toBe('2026-11-25T19:22:14.000Z');
  });

  it('dates a file by the São Paulo day, not the UTC one', () => {
    expect(datedName('contatos', 'csv', new Date('2026-11-26T01:30:00Z'))).toBe('contatos-2026-11-25.csv');
    expect(datedName('contatos', 'xlsx', new Date('2026-11-26T03:00:00Z'))).toBe('contatos-2026-11-26.xlsx');
  });
});
