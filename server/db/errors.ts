/** The PostgreSQL error behind a driver or Drizzle error, if any (PGlite and pg report the same codes). */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
    e = e.cause as typeof e;
  }
  return {};
}

export const isUniqueViolation = (err: unknown, constraint?: string) => {
  const e = pgError(err);
  return e.code === '23505' && (!constraint || e.constraint === constraint);
};

/**
 * PostgreSQL refusing a value as data (not a bug in a query): a character it cannot store (NUL,
 * 22021, 22P05), text longer than its column (22001), a malformed literal (22P02), an index row too
 * large (54000). Validation should stop these first; if one slips through it is still the client's
 * input, answered 400.
 */
const BAD_INPUT_CODES = new Set(['22021', '22P05', '22001', '22P02', '54000']);
export const isBadInputError = (err: unknown) => BAD_INPUT_CODES.has(pgError(err).code ?? '');
