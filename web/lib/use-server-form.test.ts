import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { applyServerErrors, serverFieldErrors } from './use-server-form';

type Form = { name: string; phone: string; groups: string[] };

function badRequest(fieldErrors?: Record<string, string>) {
  const body = JSON.stringify({ code: 'VALIDATION', message: 'Dados inválidos', fieldErrors });
  return new ApiError(400, 'Bad Request', body);
}

describe('serverFieldErrors', () => {
  it('keeps the messages of the fields the form names, in its order', () => {
    const error = badRequest({ phone: 'Telefone inválido', name: 'Nome é obrigatório', other: 'x' });
    expect(serverFieldErrors<Form>(error, ['name', 'phone'])).toEqual([
      ['name', 'Nome é obrigatório'],
      ['phone', 'Telefone inválido'],
    ]);
  });

  it('renames the server’s fields the form calls otherwise', () => {
    const error = badRequest({ targetGroups: 'Selecione pelo menos um grupo', name: 'Nome é obrigatório' });
    expect(serverFieldErrors<Form>(error, { targetGroups: 'groups' })).toEqual([
      ['groups', 'Selecione pelo menos um grupo'],
    ]);
  });

  it('finds nothing in an answer without field errors, nor in a failure that is not the server’s', () => {
    expect(serverFieldErrors<Form>(badRequest(), ['name'])).toEqual([]);
    expect(serverFieldErrors<Form>(new ApiError(502, 'Bad Gateway', '<html>'), ['name'])).toEqual([]);
    expect(serverFieldErrors<Form>(new TypeError('Failed to fetch'), ['name'])).toEqual([]);
  });

  it('skips an empty message', () => {
    expect(serverFieldErrors<Form>(badRequest({ name: '' }), ['name'])).toEqual([]);
  });
});

describe('applyServerErrors', () => {
  it('sets each message as a server error on its field and says whether it set any', () => {
    const set: [string, unknown][] = [];
    const form = { setError: (name: string, error: unknown) => void set.push([name, error]) };
    expect(applyServerErrors<Form>(form, badRequest({ name: 'Nome é obrigatório' }), ['name', 'phone'])).toBe(true);
    expect(set).toEqual([['name', { type: 'server', message: 'Nome é obrigatório' }]]);
    expect(applyServerErrors<Form>(form, badRequest({ other: 'x' }), ['name'])).toBe(false);
    expect(set).toHaveLength(1);
  });
});
