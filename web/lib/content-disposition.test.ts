import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './content-disposition';

describe('filenameFromDisposition', () => {
  it('prefers the UTF-8 name, so accents survive', () => {
    const header = `attachment; filename="membros-Promocoes.csv"; filename*=UTF-8''membros-Promo%C3%A7%C3%B5es.csv`;
    expect(filenameFromDisposition(header, 'x.csv')).toBe('membros-Promoções.csv');
  });
  it('falls back to the plain name, then to the given one', () => {
    expect(filenameFromDisposition('attachment; filename="a.csv"', 'x.csv')).toBe('a.csv');
    expect(filenameFromDisposition(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4`, 'x.csv')).toBe('a.csv');
    expect(filenameFromDisposition(null, 'x.csv')).toBe('x.csv');
  });
});
