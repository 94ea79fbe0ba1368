import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TokenizeMeter, tokenizeWhatsapp, type WhatsappRun } from './whatsapp-text';

const plain = (text: string): WhatsappRun => ({ text });
const bold = (text: string): WhatsappRun => ({ text, bold: true });
const italic = (text: string): WhatsappRun => ({ text, italic: true });
const strike = (text: string): WhatsappRun => ({ text, strike: true });

describe('tokenizeWhatsapp', () => {
  it('formats bold, italic, strike, monospace and inline code, dropping their markers', () => {
    expect(tokenizeWhatsapp('*50% OFF*')).toEqual([bold('50% OFF')]);
    expect(tokenizeWhatsapp('Só hoje: *50% OFF* no _site_ e ~R$ 99~!')).toEqual([
      plain('Só hoje: '),
      bold('50% OFF'),
      plain(' no '),
      italic('site'),
      plain(' e '),
      strike('R$ 99'),
      plain('!'),
    ]);
    expect(tokenizeWhatsapp('rode ```npm i``` agora')).toEqual([
      plain('rode '),
      { text: 'npm i', mono: 'block' },
      plain(' agora'),
    ]);
    expect(tokenizeWhatsapp('use `cupom10` hoje')).toEqual([
      plain('use '),
      { text: 'cupom10', mono: 'inline' },
      plain(' hoje'),
    ]);
  });

  it('needs each marker to touch text at both ends, and no letter or digit outside it', () => {
    for (const text of [
      '2*3*4',
      'snake_case_name',
      '5 * 3 * 2',
      '* item',
      '*bold *',
      '* bold*',
      '*bold*text',
      'a*bold*',
      '~ ~',
      '**',
      '__',
      'a`b`c',
      '` x`',
      '``',
      '``````',
      '``` ```',
      'email_de_teste@exemplo.com',
    ]) {
      expect(tokenizeWhatsapp(text), text).toEqual([plain(text)]);
    }
    // Punctuation (and emoji) may stand on either side.
    expect(tokenizeWhatsapp('(*ok*)')).toEqual([plain('('), bold('ok'), plain(')')]);
    expect(tokenizeWhatsapp('R$*10*,00')).toEqual([plain('R$'), bold('10'), plain(',00')]);
    expect(tokenizeWhatsapp('🔥*promo*🔥')).toEqual([plain('🔥'), bold('promo'), plain('🔥')]);
    expect(tokenizeWhatsapp('*a*')).toEqual([bold('a')]);
  });

  it('never formats across a line break, and keeps the line breaks', () => {
    expect(tokenizeWhatsapp('*linha 1\nlinha 2*')).toEqual([plain('*linha 1\nlinha 2*')]);
    expect(tokenizeWhatsapp('*linha 1*\n\n_linha 2_')).toEqual([bold('linha 1'), plain('\n\n'), italic('linha 2')]);
  });

  it('closes at the first closing marker, nests styles and never lets them cross', () => {
    expect(tokenizeWhatsapp('*a* b*')).toEqual([bold('a'), plain(' b*')]);
    expect(tokenizeWhatsapp('*a *b* c*')).toEqual([bold('a *b'), plain(' c*')]);
    expect(tokenizeWhatsapp('*_x_*')).toEqual([{ text: 'x', bold: true, italic: true }]);
    expect(tokenizeWhatsapp('*negrito _e itálico_ só negrito*')).toEqual([
      bold('negrito '),
      { text: 'e itálico', bold: true, italic: true },
      bold(' só negrito'),
    ]);
    expect(tokenizeWhatsapp('*a _b* c_')).toEqual([bold('a _b'), plain(' c_')]);
    expect(tokenizeWhatsapp('~*_tudo_*~')).toEqual([{ text: 'tudo', bold: true, italic: true, strike: true }]);
    expect(tokenizeWhatsapp('**bold**')).toEqual([bold('*bold'), plain('*')]);
  });

  it('writes monospace exactly as it is, across lines, with no style inside', () => {
    expect(tokenizeWhatsapp('```linha *1*\n  _2_```\n*fim*')).toEqual([
      { text: 'linha *1*\n  _2_', mono: 'block' },
      plain('\n'),
      bold('fim'),
    ]);
    expect(tokenizeWhatsapp('`*não*` e *sim*')).toEqual([{ text: '*não*', mono: 'inline' }, plain(' e '), bold('sim')]);
    // Styles around code apply to it; an unclosed fence is text.
    expect(tokenizeWhatsapp('*`x`*')).toEqual([{ text: 'x', bold: true, mono: 'inline' }]);
    expect(tokenizeWhatsapp('```aberto *b*')).toEqual([plain('```aberto '), bold('b')]);
    expect(tokenizeWhatsapp('``````x```')).toEqual([plain('```'), { text: 'x', mono: 'block' }]);
  });

  it('leaves plain text as one run, and an empty text as none', () => {
    expect(tokenizeWhatsapp('Olá, tudo bem?\nAté logo.')).toEqual([plain('Olá, tudo bem?\nAté logo.')]);
    expect(tokenizeWhatsapp('')).toEqual([]);
  });
});

const marked = fc.constantFrom('*', '_', '~', '`', '```', ' ', '\n', 'a', 'Olá', '5', '(', '!', '😀');
const message = fc.oneof(
  fc.array(marked, { maxLength: 800 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 2000 }),
);

describe('what the tokenizer keeps', () => {
  it('drops only markers: the runs are the text, in order, without some of its marker characters', () => {
    fc.assert(
      fc.property(message, (text) => {
        const runs = tokenizeWhatsapp(text);
        const shown = runs.map((r) => r.text).join('');
        // Every run has text, and what is shown is a subsequence of the input.
        expect(runs.every((r) => r.text.length > 0)).toBe(true);
        let j = 0;
        for (let i = 0; i < shown.length; i++) {
          while (j < text.length && text[j] !== shown[i]) {
            expect('*_~`').toContain(text[j]);
            j++;
          }
          expect(j, 'the shown text is not in the input').toBeLessThan(text.length);
          j++;
        }
        // Text without any marker character comes back as it is.
        if (!/[*_~`]/.test(text)) expect(shown).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

const fill = (unit: string, length = 100_000) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const hostile = [
  fill('*'),
  fill('*a'),
  fill('a*'),
  fill('* '),
  fill('*_~'),
  fill('*a _b ~c '),
  fill('_a *b ~c d_ '),
  fill('`'),
  fill('`a'),
  fill('` '),
  fill('```'),
  fill('```a'),
  fill('``` '),
  fill('*`a'),
  fill('*\n'),
  `${'*'.repeat(50_000)}${'a*'.repeat(25_000)}`,
  `\`${'a'.repeat(99_998)}\``,
];

describe('the cost of tokenizing', () => {
  const STEPS_PER_CHAR = 4;
  it('takes steps in proportion to the length of hostile texts', () => {
    for (const text of hostile) {
      const meter: TokenizeMeter = { steps: 0 };
      tokenizeWhatsapp(text, meter);
      expect(meter.steps, JSON.stringify(text.slice(0, 20))).toBeLessThanOrEqual(STEPS_PER_CHAR * text.length);
    }
  });

  it('reads 100,000 characters of them in well under a second each', () => {
    for (const text of hostile) tokenizeWhatsapp(text);
    const started = performance.now();
    for (const text of hostile) tokenizeWhatsapp(text);
    // One total over all of them: a loaded machine may pause any single one.
    expect(performance.now() - started).toBeLessThan(hostile.length * 100);
  });
});
