import { describe, expect, it } from 'vitest';
import { renderMessage, seededRandom, unknownVariable } from './personalize';

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
});
