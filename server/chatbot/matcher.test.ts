import { describe, expect, it } from 'vitest';
import { normalizeForMatch } from '../../contract/text-match';
import { asksForPerson, RuleMatcher } from './matcher';

const rule = (trigger: string, isActive = true) => ({ trigger, isActive, response: `r:${trigger}` });

describe('rule matcher', () => {
  it('ignores case, accents and punctuation', () => {
    const m = new RuleMatcher([rule('preço')]);
    expect(m.match('Qual o PRECO?')?.trigger).toBe('preço');
    expect(m.match('preço!!!')?.trigger).toBe('preço');
    expect(m.match('PREÇO')?.trigger).toBe('preço');
    expect(normalizeForMatch('  Olá,   MUNDO! ')).toBe('ola mundo');
  });

  it('matches whole words and phrases only', () => {
    const m = new RuleMatcher([rule('oi'), rule('horário de funcionamento')]);
    expect(m.match('boido')).toBeUndefined();
    expect(m.match('oito')).toBeUndefined();
    expect(m.match('oi, tudo bem?')?.trigger).toBe('oi');
    expect(m.match('qual o horario de funcionamento de vocês')?.trigger).toBe('horário de funcionamento');
    expect(m.match('horario funcionamento')).toBeUndefined();
  });

  it('prefers the longest trigger, then the earlier rule; skips inactive rules', () => {
    const m = new RuleMatcher([rule('preço'), rule('preço do plano'), rule('plano')]);
    expect(m.match('qual o preço do plano anual')?.trigger).toBe('preço do plano');
    const tie = new RuleMatcher([rule('frete'), rule('prazo')]);
    expect(tie.match('prazo e frete')?.trigger).toBe('frete');
    const paused = new RuleMatcher([rule('preço', false), rule('valor')]);
    expect(paused.match('preço')).toBeUndefined();
    expect(paused.size).toBe(1);
  });

  it('answers nothing for an empty or symbol-only message', () => {
    const m = new RuleMatcher([rule('oi')]);
    expect(m.match('')).toBeUndefined();
    expect(m.match('?!')).toBeUndefined();
  });

  it('recognises a request for a person', () => {
    expect(asksForPerson('Quero falar com um ATENDENTE')).toBe(true);
    expect(asksForPerson('humano por favor')).toBe(true);
    expect(asksForPerson('atendentes são legais')).toBe(false);
    expect(asksForPerson('qual o preço')).toBe(false);
  });
});
