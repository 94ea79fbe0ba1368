import { describe, expect, it } from 'vitest';
import { INVALID_CHARACTERS, isStorableText, text } from './text';

describe('text', () => {
  it('accepts what a person types: accents, emoji, tabs and line breaks', () => {
    for (const v of ['Olá, José!', 'Linha 1\nLinha 2\r\n\tfim', '🎉 Promoção', '', 'a\u200bb', '中文'])
      expect(isStorableText(v), JSON.stringify(v)).toBe(true);
  });
  it('refuses control characters and lone surrogates', () => {
    for (const v of [
      'Nul\u0000',
      '\u0001',
      'esc\u001b[31m',
      'del\u007f',
      'c1\u0085',
      '\u009f',
      'x\ud800',
      '\udfffy',
      'a\udc00\ud800b',
    ])
      expect(isStorableText(v), JSON.stringify(v)).toBe(false);
  });
  it('answers the pt-BR message and chains like z.string()', () => {
    const schema = text().trim().min(2, 'curto').max(5, 'longo');
    expect(schema.parse('  abc  ')).toBe('abc');
    expect(schema.safeParse('a').error?.issues[0].message).toBe('curto');
    expect(schema.safeParse('ab\u0000c').error?.issues[0].message).toBe(INVALID_CHARACTERS);
    expect(text().safeParse(42).success).toBe(false);
  });
});
