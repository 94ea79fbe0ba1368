import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCampaignBody } from './campaigns';
import { contactInput, neutralizeCell, parseTags, toCsv } from './contacts';

const contact = (tags: unknown) => contactInput.safeParse({ name: 'Ana', phone: '21998765432', tags });

describe('tags', () => {
  it('are trimmed, cut to 50 characters, without empties or repeats, at most 30', () => {
    expect(parseTags(' vip, cliente ,,vip, lead ')).toEqual(['vip', 'cliente', 'lead']);
    expect(parseTags(['vip', ' ', 'VIP', 'vip '])).toEqual(['vip', 'VIP']);
    expect(parseTags(['x'.repeat(60), `${'x'.repeat(50)}y`])).toEqual(['x'.repeat(50)]);
    const many = Array.from({ length: 40 }, (_, i) => `t${i}`);
    expect(parseTags(many)).toEqual(many.slice(0, 30));
    expect(parseTags(many.join(','))).toEqual(many.slice(0, 30));
    expect(contact('vip, lead').data?.tags).toEqual(['vip', 'lead']);
    expect(contact(undefined).data?.tags).toEqual([]);
    expect(contact(['vip', 'a\u0000']).success).toBe(false);
    expect(contact(['vip', 3]).success).toBe(false);
  });

  it('read no more of a long list than the first 30 distinct tags need', () => {
    const tags = Array.from({ length: 110_000 }, (_, i) => `tag${i}`);
    const first30 = tags.slice(0, 30);
    for (const input of [tags, tags.join(',')]) {
      const started = performance.now();
      expect(parseTags(input)).toEqual(first30);
      expect(contact(input).data?.tags).toEqual(first30);
      // Comparing each tag with every other one took 5 to 20 s here; a pass over them, milliseconds
      // (the bound leaves room for a busy machine).
      expect(performance.now() - started).toBeLessThan(2_500);
    }
    // Items after the 30th tag cannot change the result: they are not even validated.
    expect(contact([...first30, 42, 'a\u0000']).data?.tags).toEqual(first30);
  });

  it('stay linear when a long list repeats itself or is empty', () => {
    const started = performance.now();
    expect(contact(Array.from({ length: 110_000 }, (_, i) => (i % 2 ? ' vip ' : ''))).data?.tags).toEqual(['vip']);
    expect(contact(','.repeat(1_000_000)).data?.tags).toEqual([]);
    expect(contact(Array.from({ length: 110_000 }, (_, i) => `t${i % 29}`)).data?.tags).toHaveLength(29);
    // One refused item is enough: a flood of them is not validated one by one.
    expect(contact(Array.from({ length: 110_000 }, () => '\u0001')).error?.issues).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('request lists', () => {
  it('refuse a campaign naming more groups than a backup keeps', () => {
    const body = (targetGroups: unknown) =>
      createCampaignBody.safeParse({ name: 'Promo', message: 'Oi', targetType: 'groups', targetGroups });
    expect(body(['Clientes', '', ' VIP ']).data?.targetGroups).toEqual(['Clientes', 'VIP']);
    expect(body('Clientes').data?.targetGroups).toEqual(['Clientes']);
    expect(body(Array.from({ length: 1000 }, (_, i) => `g${i}`)).success).toBe(true);
    expect(body(Array.from({ length: 300_000 }, () => '')).success).toBe(false);
  });
});

/** True when a spreadsheet could take this text (blanks and quotes before it aside) for a formula. */
const startsFormula = (text: string) => /^(?:[^\S\t\r\n]|")*[=+\-@]/.test(text);
const PLAIN_NUMBER = /^[+-]?\d[\d.,]*$/;

describe('CSV cells', () => {
  it('leave a cell alone only when all of it is a plain number', () => {
    expect(neutralizeCell('-1')).toBe('-1');
    expect(neutralizeCell('-1\r')).toBe("'-1\r");
    expect(neutralizeCell('+55\n=1')).toBe("'+55\n'=1");
  });

  it('neutralise each dangerous first character', () => {
    for (const v of ['=1+1', '+55+cmd|x', '-2+3', '@SUM(A1)', '+55 (11)', ' =1', '"=1'])
      expect(neutralizeCell(v)).toBe(`'${v}`);
    // Plain numbers cannot run anything; an apostrophe would only spoil them.
    for (const v of ['Ana', '+5521998765432', '-2', '3,5', 'ana@example.com', 'Ana - loja'])
      expect(neutralizeCell(v)).toBe(v);
  });

  it('neutralise what follows a tab or a line break, for readers that split there', () => {
    expect(neutralizeCell('a\t=1+1')).toBe("a\t'=1+1");
    expect(neutralizeCell('\t=1')).toBe("\t'=1");
    expect(neutralizeCell('linha 1\r\n@SUM(A1)\n\n-x')).toBe("linha 1\r\n'@SUM(A1)\n\n'-x");
    expect(neutralizeCell('a\t\t+b\tc\t-2')).toBe("a\t\t'+b\tc\t'-2");
    expect(neutralizeCell('a\t "=1')).toBe(`a\t' "=1`);
    expect(neutralizeCell('Ana\tMaria\nSouza')).toBe('Ana\tMaria\nSouza');
  });

  it('quote a cell with a tab, so that a tab-separated reader sees no formula either', () => {
    const csv = toCsv([
      ['Nome', 'Tags'],
      ['a\t=1+1', 'b\t@x'],
      ['linha\n-1+2', '+55 (11)\t=cmd|x'],
    ]);
    expect(csv).toBe(`\uFEFFNome;Tags\r\n"a\t'=1+1";"b\t'@x"\r\n"linha\n'-1+2";"'+55 (11)\t'=cmd|x"\r\n`);
    for (const part of csv.slice(1).split(/[\t\r\n]/)) expect(startsFormula(part), part).toBe(false);
  });

  it('hold for any cell: no part starts a formula, and separators are quoted', () => {
    const piece = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ' ', ';', ',', '"', "'", 'a', '1', 'cmd|x');
    const cell = fc.oneof(
      fc.array(piece, { maxLength: 20 }).map((p) => p.join('')),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(cell, (v) => {
        const written = neutralizeCell(v);
        const [first, ...after] = written.split(/[\t\r\n]/);
        expect(startsFormula(first) && !PLAIN_NUMBER.test(written)).toBe(false);
        for (const part of after) expect(startsFormula(part), JSON.stringify(written)).toBe(false);
        // Only apostrophes are added.
        expect(written.replaceAll("'", '')).toBe(v.replaceAll("'", ''));
        const csv = toCsv([[v, 'x']]);
        expect(csv).toBe(
          /[\t;",\r\n]/.test(written) ? `\uFEFF"${written.replaceAll('"', '""')}";x\r\n` : `\uFEFF${written};x\r\n`,
        );
      }),
      { numRuns: 1000, seed: 20261125 },
    );
  });

  it('take linear time on long cells', () => {
    const started = performance.now();
    neutralizeCell('x\t'.repeat(500_000));
    neutralizeCell(`\t${' '.repeat(1_000_000)}a`);
    neutralizeCell('\n -'.repeat(300_000));
    // Quadratic work on a million characters takes minutes; a pass, milliseconds.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
