import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isBadInputError, isUniqueViolation } from './errors';

const pg = (code: string, constraint?: string) => Object.assign(new Error(`pg ${code}`), { code, constraint });
const viaDrizzle = (cause: Error) => new DrizzleQueryError('select $1', ['x'], cause);

describe('database errors', () => {
  it('take data PostgreSQL refuses for input, through the Drizzle cause chain', () => {
    for (const code of ['22021', '22P05', '22001', '22P02', '54000']) {
      expect(isBadInputError(pg(code)), code).toBe(true);
      expect(isBadInputError(viaDrizzle(pg(code))), code).toBe(true);
    }
  });
  it('leave other failures to be answered as server errors', () => {
    for (const err of [pg('23505'), pg('42P01'), new Error('boom'), viaDrizzle(new Error('no code')), undefined, 'x'])
      expect(isBadInputError(err)).toBe(false);
  });
  it('find a unique violation and its constraint', () => {
    expect(isUniqueViolation(viaDrizzle(pg('23505', 'users_username_unique')), 'users_username_unique')).toBe(true);
    expect(isUniqueViolation(viaDrizzle(pg('23505', 'other')), 'users_username_unique')).toBe(false);
  });
});
