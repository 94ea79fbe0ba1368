import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactSecrets, redactUrl, serializeError } from './logger';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
const SQL = 'insert into "users" ("name", "password_hash") values ($1, $2)';

/** A failed insert as Drizzle reports it: its params (a hash, a value with line breaks) and PostgreSQL's detail. */
function failedInsert(): DrizzleQueryError {
  const pg = Object.assign(new Error('duplicate key value violates unique constraint "users_username_unique"'), {
    code: '23505',
    constraint: 'users_username_unique',
    table: 'users',
    detail: 'Key (username)=(valor-do-usuario) already exists.',
    severity: 'ERROR',
  });
  return new DrizzleQueryError(SQL, ['Linha 1\n    at falso (quebra)\nvalor-multilinha', HASH], pg);
}

/** A Fastify logger with the server's settings, writing into a string. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ logger: { ...loggerOptions('info'), stream } });
  return { log: app.log, text: () => lines.join('') };
}

describe('serializeError', () => {
  it("keeps the SQL, code and constraint of a failed query and drops its values and PostgreSQL's detail", () => {
    const out = JSON.stringify(serializeError(failedInsert()));
    expect(out).toContain('Failed query: insert into');
    expect(out).toContain('23505');
    expect(out).toContain('users_username_unique');
    expect(out).toContain('"query"');
    for (const value of [HASH, 'valor-multilinha', 'quebra', 'valor-do-usuario', 'params'])
      expect(out, value).not.toContain(value);
  });
  it('walks the cause chain and survives what is not an Error', () => {
    const wrapped = new Error('outer', { cause: failedInsert() });
    const out = serializeError(wrapped);
    expect((out.cause as { type: string }).type).toBe('DrizzleQueryError');
    expect(JSON.stringify(out)).not.toContain(HASH);
    expect(serializeError('texto')).toMatchObject({ type: 'string', message: 'texto' });
  });
});

describe('redactSecrets', () => {
  it('replaces secret-looking keys at any depth, leaving the rest', () => {
    const out = redactSecrets({
      user: { name: 'Ana', passwordHash: HASH, sessions: [{ tokenHash: 'abc', id: 1 }] },
      headers: { cookie: 'disparo_session=abc', Authorization: 'Bearer x', 'user-agent': 'vitest' },
      appSecret: 's',
      api_key: 'k',
    });
    expect(out).toEqual({
      user: { name: 'Ana', passwordHash: '[redacted]', sessions: [{ tokenHash: '[redacted]', id: 1 }] },
      headers: { cookie: '[redacted]', Authorization: '[redacted]', 'user-agent': 'vitest' },
      appSecret: '[redacted]',
      api_key: '[redacted]',
    });
  });
  it('copes with cycles and leaves class instances alone', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const date = new Date(0);
    expect(redactSecrets({ a, date })).toEqual({ a: { name: 'a', self: '[…]' }, date });
  });
  it('redacts token-like values in a query string', () => {
    expect(redactUrl('/w?hub.mode=subscribe&hub.verify_token=abc&hub.challenge=1')).toBe(
      '/w?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1',
    );
  });
});

describe('the server logger', () => {
  it('never writes a failed query’s values, however the error is logged', () => {
    const { log, text } = capturedLogger();
    log.error(failedInsert());
    log.error({ err: failedInsert() });
    log.warn({ error: failedInsert(), context: { errors: [failedInsert()] } }, 'nested');
    const out = text();
    expect(out.match(/Failed query: insert into/g)?.length).toBeGreaterThanOrEqual(4);
    for (const value of [HASH, '$argon2id$', 'valor-multilinha', 'valor-do-usuario'])
      expect(out, value).not.toContain(value);
  });
  it('never writes passwords, hashes, tokens, secrets, cookies or authorization headers', () => {
    const { log, text } = capturedLogger();
    log.info(
      {
        password: 'senha-em-claro',
        body: { currentPassword: 'senha-atual', newPassword: 'senha-nova' },
        deep: { a: { b: { c: [{ accessToken: 'EAAB-token', appSecret: 'segredo-app' }] } } },
        req: { headers: { cookie: 'disparo_session=abc123', authorization: 'Bearer xyz789' } },
        headers: { cookie: 'disparo_session=abc123', authorization: 'Bearer xyz789' },
      },
      'context',
    );
    log.child({ module: 'x' }).warn({ err: { password: 'senha-em-objeto' } }, 'plain err');
    const out = text();
    expect(out).toContain('context');
    for (const secret of [
      'senha-em-claro',
      'senha-atual',
      'senha-nova',
      'EAAB-token',
      'segredo-app',
      'abc123',
      'xyz789',
      'senha-em-objeto',
    ])
      expect(out, secret).not.toContain(secret);
  });
});
