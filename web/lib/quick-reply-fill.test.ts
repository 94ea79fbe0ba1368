import { describe, expect, it } from 'vitest';
import type { QuickReply } from '#contract/quick-replies';
import { applyQuickReply, fillQuickReply, matchingQuickReplies, slashQueryAt } from './quick-reply-fill';

const ana = { name: 'Ana Maria Souza', phone: '5511987654321' };

const reply = (shortcut: string): QuickReply => ({
  id: shortcut,
  shortcut,
  text: `Texto de ${shortcut}`,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

describe('fillQuickReply', () => {
  it('fills the campaign variables for the contact, the phone written as campaigns write it', () => {
    expect(fillQuickReply('Oi {{primeiro_nome}}! {{nome}}, seu número é {{telefone}}.', ana)).toBe(
      'Oi Ana! Ana Maria Souza, seu número é +55 11 98765-4321.',
    );
  });

  it('gives the fallback, or nothing, for what the contact lacks', () => {
    const nameless = { name: null, phone: '5511987654321' };
    expect(fillQuickReply('Olá {{primeiro_nome|cliente}}!', nameless)).toBe('Olá cliente!');
    expect(fillQuickReply('Olá {{nome}}!', nameless)).toBe('Olá !');
    expect(fillQuickReply('E-mail: {{email|não informado}}', ana)).toBe('E-mail: não informado');
    expect(fillQuickReply('E-mail: {{email}}', { ...ana, email: 'ana@example.com' })).toBe('E-mail: ana@example.com');
  });

  it('leaves text without variables as written, braces included', () => {
    expect(fillQuickReply('Horário: 8h às 18h {sem variáveis}', ana)).toBe('Horário: 8h às 18h {sem variáveis}');
  });

  it('picks one spintax option, the same one every time for the same contact', () => {
    const text = '{Olá|Oi|Bom dia}, {{primeiro_nome}}';
    const first = fillQuickReply(text, ana);
    expect(['Olá, Ana', 'Oi, Ana', 'Bom dia, Ana']).toContain(first);
    expect(fillQuickReply(text, ana)).toBe(first);
  });
});

describe('slashQueryAt', () => {
  it('finds a /query at the start of the text', () => {
    expect(slashQueryAt('/', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(slashQueryAt('/boas', 5)).toEqual({ start: 0, end: 5, query: 'boas' });
  });

  it('finds a /query after whitespace, a line break included', () => {
    expect(slashQueryAt('Olá /pre', 8)).toEqual({ start: 4, end: 8, query: 'pre' });
    expect(slashQueryAt('Olá\n/pre', 8)).toEqual({ start: 4, end: 8, query: 'pre' });
  });

  it('gives the query typed before the caret, in lower case, and the whole shortcut to replace', () => {
    expect(slashQueryAt('/Boas-vindas e mais', 3)).toEqual({ start: 0, end: 12, query: 'bo' });
    expect(slashQueryAt('a /ç_1 b', 6)).toEqual({ start: 2, end: 6, query: 'ç_1' });
  });

  it('says nothing outside a /query', () => {
    expect(slashQueryAt('', 0)).toBeNull();
    expect(slashQueryAt('olá', 3)).toBeNull();
    expect(slashQueryAt('http://site', 11)).toBeNull();
    expect(slashQueryAt('a/b', 3)).toBeNull();
    expect(slashQueryAt('/boas vindas', 12)).toBeNull();
    expect(slashQueryAt('/boas ', 6)).toBeNull();
    expect(slashQueryAt('/boas.', 6)).toBeNull();
    expect(slashQueryAt('/boas', 0)).toBeNull();
    expect(slashQueryAt('/boas', 9)).toBeNull();
  });

  it('gives up on a word longer than a shortcut', () => {
    expect(slashQueryAt(`/${'a'.repeat(30)}`, 31)?.query).toBe('a'.repeat(30));
    expect(slashQueryAt(`/${'a'.repeat(31)}`, 32)).toBeNull();
    const long = 'a'.repeat(100_000);
    expect(slashQueryAt(long, long.length)).toBeNull();
  });
});

describe('matchingQuickReplies', () => {
  const replies = [reply('boas-vindas'), reply('boleto'), reply('horario')];

  it('keeps the replies whose shortcut starts with the query, in order', () => {
    expect(matchingQuickReplies(replies, '').map((r) => r.shortcut)).toEqual(['boas-vindas', 'boleto', 'horario']);
    expect(matchingQuickReplies(replies, 'bo').map((r) => r.shortcut)).toEqual(['boas-vindas', 'boleto']);
    expect(matchingQuickReplies(replies, 'BOL').map((r) => r.shortcut)).toEqual(['boleto']);
    expect(matchingQuickReplies(replies, 'vindas')).toEqual([]);
  });
});

describe('applyQuickReply', () => {
  it('replaces the /query with the text and puts the caret after it', () => {
    const text = 'Olá! /bo obrigado';
    const at = slashQueryAt(text, 8);
    expect(at).not.toBeNull();
    expect(applyQuickReply(text, at ?? { start: 0, end: 0 }, 'Segue o boleto.')).toEqual({
      text: 'Olá! Segue o boleto. obrigado',
      caret: 20,
    });
  });
});
