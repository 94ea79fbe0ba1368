import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_MESSAGE_MAX } from './campaigns';
import {
  nameVariables,
  type ParseMeter,
  parseMessage,
  renderMessage,
  SPINTAX_MAX_DEPTH,
  SPINTAX_MAX_OPTIONS,
  seededRandom,
  unknownVariable,
  VARIABLE_FALLBACK_MAX,
} from './personalize';

const ana = { name: 'Ana Maria Souza', phone: '+55 21 99876-5432', email: 'ana@example.com' };

describe('personalised messages', () => {
  it('fills every variable', () => {
    expect(renderMessage('{{nome}}|{{primeiro_nome}}|{{telefone}}|{{email}}', ana)).toBe(
      'Ana Maria Souza|Ana|+55 21 99876-5432|ana@example.com',
    );
    expect(renderMessage('Oi {{ Primeiro_Nome }}', ana)).toBe('Oi Ana');
    expect(renderMessage('{{email}}.', { name: 'B', phone: '1' })).toBe('.');
  });

  it('chooses one option of each spintax group, nested ones too', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(renderMessage('{Olá|Oi|{Bom dia|Boa tarde}}, {{primeiro_nome}}!', ana));
    expect(seen).toEqual(new Set(['Olá, Ana!', 'Oi, Ana!', 'Bom dia, Ana!', 'Boa tarde, Ana!']));
  });

  it('is the same every time for one recipient and varies between recipients', () => {
    const msg = '{A|B|C|D|E|F|G|H} {1|2|3|4|5|6|7|8}';
    const once = renderMessage(msg, ana, seededRandom('5521998765432'));
    expect(renderMessage(msg, ana, seededRandom('5521998765432'))).toBe(once);
    const variants = new Set(
      Array.from({ length: 50 }, (_, i) =>
        renderMessage(msg, ana, seededRandom(`55219987654${String(i).padStart(2, '0')}`)),
      ),
    );
    expect(variants.size).toBeGreaterThan(20);
  });

  it('leaves braces that are not spintax as written', () => {
    expect(renderMessage('Use {cupom} hoje :-{ e {a|b', ana, () => 0)).toBe('Use {cupom} hoje :-{ e {a|b');
    expect(renderMessage('{{nome}', ana)).toBe('{{nome}');
    expect(renderMessage('JSON {"a": 1}', ana)).toBe('JSON {"a": 1}');
  });

  it('finds an unknown variable, also inside spintax', () => {
    expect(unknownVariable('Oi {{nome}} {{primeiro_nome}} {{telefone}} {{email}}')).toBeNull();
    expect(unknownVariable('Oi {{cidade}}')).toBe('cidade');
    expect(unknownVariable('{Oi|Olá {{sobrenome}}}')).toBe('sobrenome');
    expect(unknownVariable('sem variáveis { | }')).toBeNull();
  });

  it('pairs braces: a group without | inside spintax stays as written in its option', () => {
    const options = new Set(Array.from({ length: 200 }, () => renderMessage('{a|{b}|c} fim', ana)));
    expect(options).toEqual(new Set(['a fim', '{b} fim', 'c fim']));
    // An unclosed group is text; a completed group inside it still varies.
    expect(renderMessage('{a|{b|c}', ana, () => 0)).toBe('{a|b');
    expect(renderMessage('{Oi {{primeiro_nome}}|{x|y}', ana, () => 0.99)).toBe('{Oi Ana|y');
  });

  it('treats braces deeper than the nesting limit as text', () => {
    const nested = (depth: number): string => (depth === 0 ? 'x' : `{${depth}|${nested(depth - 1)}}`);
    const msg = nested(SPINTAX_MAX_DEPTH + 1);
    // Always the last option: down to the deepest group, whose last option is the text of one more.
    expect(renderMessage(msg, ana, () => 0.999)).toBe('{1|x}');
    expect(renderMessage(msg, ana, () => 0)).toBe(String(SPINTAX_MAX_DEPTH + 1));
    expect(renderMessage(nested(SPINTAX_MAX_DEPTH), ana, () => 0.999)).toBe('x');
  });

  it('keeps a | beyond the options limit as text in the last option', () => {
    const words = Array.from({ length: SPINTAX_MAX_OPTIONS + 20 }, (_, i) => `o${i}`);
    const msg = `{${words.join('|')}}`;
    expect(renderMessage(msg, ana, () => 0)).toBe('o0');
    expect(renderMessage(msg, ana, () => 0.99999)).toBe(words.slice(SPINTAX_MAX_OPTIONS - 1).join('|'));
  });
});

describe('a variable with a fallback', () => {
  const nameless = { name: '', phone: '+55 11 98765-0098' };

  it('gives the fallback to a recipient without the value, and nothing (never the phone) without one', () => {
    expect(renderMessage('E aí {{primeiro_nome|cliente}}!', nameless)).toBe('E aí cliente!');
    expect(renderMessage('E aí {{nome|cliente}}!', nameless)).toBe('E aí cliente!');
    expect(renderMessage('E aí {{primeiro_nome}}!', nameless)).toBe('E aí !');
    expect(renderMessage('E aí {{nome}}!', nameless)).toBe('E aí !');
    expect(renderMessage('E aí {{primeiro_nome}}!', { name: '   ', phone: '1' })).toBe('E aí !');
    expect(renderMessage('{{primeiro_nome|cliente}}', { name: '  \t ', phone: '1' })).toBe('cliente');
    expect(renderMessage('{{email|sem e-mail}} {{telefone|grupo}}', { name: 'Ana', phone: '' })).toBe(
      'sem e-mail grupo',
    );
  });

  it('leaves the value of a recipient who has it as it was, with or without a fallback', () => {
    expect(renderMessage('Oi {{nome}}, {{primeiro_nome}}!', ana)).toBe('Oi Ana Maria Souza, Ana!');
    expect(renderMessage('Oi {{nome|cliente}}, {{primeiro_nome|cliente}}!', ana)).toBe('Oi Ana Maria Souza, Ana!');
    expect(renderMessage('{{telefone|x}} {{email|x}}', ana)).toBe('+55 21 99876-5432 ana@example.com');
  });

  it('tolerates spaces around the name and the |, and keeps spaces inside the fallback', () => {
    expect(renderMessage('{{ primeiro_nome | querido cliente }}', nameless)).toBe('querido cliente');
    expect(renderMessage('{{Primeiro_Nome|Cliente}}', nameless)).toBe('Cliente');
    expect(renderMessage('[{{nome|}}]', nameless)).toBe('[]');
  });

  it('works inside spintax, and a fallback is not spintax', () => {
    expect(renderMessage('{Olá|Oi} {{primeiro_nome|cliente}}', nameless, () => 0)).toBe('Olá cliente');
    expect(renderMessage('{Olá {{primeiro_nome|cliente}}|Oi}', nameless, () => 0)).toBe('Olá cliente');
    const seen = new Set(Array.from({ length: 100 }, () => renderMessage('{{primeiro_nome|cliente}}', nameless)));
    expect(seen).toEqual(new Set(['cliente']));
  });

  it('takes at most VARIABLE_FALLBACK_MAX characters after |, on one line, without braces or a second |', () => {
    const longest = 'x'.repeat(VARIABLE_FALLBACK_MAX);
    expect(renderMessage(`{{nome|${longest}}}`, nameless)).toBe(longest);
    // One more character and it is no variable: the braces are read as before (here, spintax).
    const tooLong = `{{nome|${longest}y}}`;
    expect(unknownVariable(tooLong)).toBeNull();
    expect(renderMessage(tooLong, nameless, () => 0)).toBe('{nome}');
    expect(renderMessage('{{nome|linha\noutra}}', nameless, () => 0)).toBe('{nome}');
    expect(renderMessage('{{nome|a|b}}', nameless, () => 0)).toBe('{nome}');
    expect(renderMessage('{{nome|a{b}}}', nameless, () => 0.99)).toBe('{a{b}}');
  });

  it('is checked like any variable: an unknown one is still unknown', () => {
    expect(unknownVariable('Oi {{cidade|SP}}')).toBe('cidade');
    expect(unknownVariable('Oi {{primeiro_nome|cliente}} {{email|-}}')).toBeNull();
  });

  it('lists the name variables of a message with their fallbacks', () => {
    expect(nameVariables('Oi {{primeiro_nome|cliente}}, {{telefone}} {Olá {{nome}}|Oi}')).toEqual([
      { name: 'primeiro_nome', fallback: 'cliente' },
      { name: 'nome', fallback: null },
    ]);
    expect(nameVariables('Sem nome: {{email}} {{telefone|x}}')).toEqual([]);
  });
});

/**
 * The parser's steps per character of text: a constant, whatever the arrangement of braces. Each
 * character is read once by the loop and at most once more by a variable match, and each node is
 * moved at most SPINTAX_MAX_DEPTH times when an open group turns back into text.
 */
const STEPS_PER_CHAR = 12;
const stepsOf = (message: string) => {
  const meter: ParseMeter = { steps: 0 };
  parseMessage(message, meter);
  // The meter sees every character: a parser that skipped counting would not pass for linear.
  expect(meter.steps).toBeGreaterThanOrEqual(message.length);
  return meter.steps;
};
const fill = (unit: string, length = CAMPAIGN_MESSAGE_MAX) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Texts that cost the old recursive parser exponential time, or that push a stack parser to its limits. */
const adversarial = [
  '{'.repeat(26),
  '{'.repeat(30),
  fill('{'),
  fill('}'),
  fill('|'),
  fill('{|'),
  fill('{a|'),
  fill('{{'),
  fill('}}'),
  fill('{}'),
  fill('{{nome}'),
  fill('{{ '),
  `{{${' '.repeat(37)}`.repeat(100),
  `${'{a|'.repeat(SPINTAX_MAX_DEPTH)}${fill('{{nome}}', 4000)}`,
  `${'{'.repeat(SPINTAX_MAX_DEPTH)}${fill('{{nome}}|a', 4000)}`,
  `${'{'.repeat(SPINTAX_MAX_DEPTH)}${fill('{a|b}', 4000)}`,
  `${'{'.repeat(SPINTAX_MAX_DEPTH)}${fill('{{a}}x', 4000)}`,
  `${'{'.repeat(SPINTAX_MAX_DEPTH)}${fill('{|}', 4000)}`,
  `{${fill('|', 4094)}}`,
  fill('{a|{b|{c|'),
  fill('{x}|{'),
  fill('{Olá|Oi {{primeiro_nome}}|{Bom dia|Boa tarde}} '),
  // Fallbacks: each look-ahead ends at the next brace, | or line break, or after VARIABLE_FALLBACK_MAX.
  fill('{{nome|'),
  fill('{{a|'),
  fill(`{{nome|${'x'.repeat(VARIABLE_FALLBACK_MAX + 5)}`),
  fill(`{{ nome | ${' '.repeat(VARIABLE_FALLBACK_MAX - 2)}`),
  fill('{{nome|cliente}}'),
  fill('{{nome|cliente}'),
  fill('{{{{nome|{{nome|}}'),
  fill(`{{nome|${'|'.repeat(30)}`),
  `${'{a|'.repeat(SPINTAX_MAX_DEPTH)}${fill('{{primeiro_nome|cliente}}', 4000)}`,
];

describe('the cost of parsing a message', () => {
  it('is the literal text for runs of opening braces, at once (it took 10 s for 26 before)', () => {
    for (const n of [26, 30, CAMPAIGN_MESSAGE_MAX]) {
      const msg = '{'.repeat(n);
      const started = performance.now();
      expect(renderMessage(msg, ana)).toBe(msg);
      expect(unknownVariable(msg)).toBeNull();
      expect(performance.now() - started).toBeLessThan(200);
      expect(stepsOf(msg)).toBeLessThanOrEqual(STEPS_PER_CHAR * n);
    }
  });

  it('takes steps in proportion to the length of adversarial texts', () => {
    for (const msg of adversarial) {
      expect(msg.length).toBeLessThanOrEqual(CAMPAIGN_MESSAGE_MAX);
      expect(stepsOf(msg), JSON.stringify(msg.slice(0, 40))).toBeLessThanOrEqual(STEPS_PER_CHAR * msg.length);
      renderMessage(msg, ana);
    }
  });

  const token = fc.constantFrom(
    '{',
    '}',
    '|',
    '{{',
    '}}',
    '{|',
    '{a|',
    '|}',
    '{{nome}}',
    '{{ Primeiro_Nome }}',
    '{{cidade}}',
    '{{nome}',
    '{{nome|',
    '{{ primeiro_nome | cliente }}',
    '|cliente}}',
    'a',
    'Olá ',
    ' ',
    '\n',
  );
  const message = fc.oneof(
    fc.array(token, { maxLength: 2000 }).map((parts) => parts.join('').slice(0, CAMPAIGN_MESSAGE_MAX)),
    fc.tuple(token, fc.integer({ min: 1, max: CAMPAIGN_MESSAGE_MAX })).map(([t, n]) => fill(t, n)),
    fc.string({ maxLength: CAMPAIGN_MESSAGE_MAX }),
  );

  it('holds random and adversarial texts to the linear bound', () => {
    fc.assert(
      fc.property(message, (msg) => {
        expect(stepsOf(msg)).toBeLessThanOrEqual(STEPS_PER_CHAR * Math.max(1, msg.length));
        expect(typeof renderMessage(msg, ana)).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('parses each of them in well under 5 ms', () => {
    const texts = [...fc.sample(message, { numRuns: 300, seed: 42 }), ...adversarial];
    for (const msg of texts) parseMessage(msg);
    // One total over many parses, not a limit per parse: a loaded machine may pause any single one.
    const started = performance.now();
    for (const msg of texts) parseMessage(msg);
    expect(performance.now() - started).toBeLessThan(texts.length * 5);
  });
});
