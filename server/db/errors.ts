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
/**
 * The database out of reach for a moment (restarting, network dropped, too many connections): the
 * request may well succeed if tried again, so it is answered 503, not 500. SQLSTATE class 08
 * (connection exception), 57P01–57P03 (shutdown, cannot connect now), 53300 (too many connections),
 * the socket errors of the driver, and node-postgres's own messages for a connection that ended.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNAVAILABLE_MESSAGE =
  /^Connection terminated|^Client has encountered a connection error|^timeout exceeded when trying to connect/;
export function isDatabaseUnavailable(err: unknown): boolean {
  let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_SOCKET.has(e.code)))
      return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

const BAD_INPUT_CODES = new Set(['22021', '22P05', '22001', '22P02', '54000']);
export const isBadInputError = (err: unknown) => BAD_INPUT_CODES.has(pgError(err).code ?? '');
