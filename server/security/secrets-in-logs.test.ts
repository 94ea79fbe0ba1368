import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CHARACTERS } from '../../contract/text';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { users } from '../db/schema';
import { loggerOptions } from '../logger';
import { hashPassword } from '../modules/auth';
import type { TestApp } from '../testing/test-app';
import { createTestDatabase } from '../testing/test-db';

/** The app with its real logger settings, writing into `lines`. */
let app: TestApp;
let database: Database;
let dataDir: string;
const lines: string[] = [];
const log = () => lines.join('');

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-log-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOGIN_RATE_LIMIT: '1000' });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  app = (await buildApp({
    config,
    db: database.db,
    serveWeb: false,
    logger: { ...loggerOptions('info'), stream },
  })) as TestApp;
  // Input that slipped past validation and reached the database, as a NUL name once did.
  app.post('/api/test/failed-insert', { config: { access: 'public' } }, async () => {
    await database.db.insert(users).values(userWithHash('Nul\u0000', await hashPassword('senha-secreta-2')));
    return { ok: true };
  });
  app.get('/api/test/bad-uuid', { config: { access: 'public' } }, async () => {
    await database.db.execute(sql`select ${'não-é-uuid'}::uuid`);
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const userWithHash = (name: string, passwordHash: string) => ({
  name,
  email: 'x@example.com',
  username: `nul${Math.random().toString(36).slice(2, 8)}`,
  whatsappNumber: '1',
  passwordHash,
  accountType: 'pending' as const,
  planType: 'basic' as const,
});

const registration = (name: string) => {
  const n = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    name,
    email: `n${n}@example.com`,
    username: `n${n}`,
    password: 'senha-secreta-1',
    whatsappNumber: '11987654321',
  };
};

describe('a NUL byte', () => {
  it('is refused with a pt-BR 400 wherever a person can type, never a 500', async () => {
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, headers: { origin: 'http://localhost' } });
    const cases: Array<[string, object]> = [
      ['/api/auth/register', registration('Nul\u0000 Teste')],
      ['/api/auth/login', { username: 'nul\u0000user', password: 'senha-secreta-1' }],
      ['/api/auth/demo-signup', { name: 'Nul\u0000', whatsappNumber: '11987654321', email: 'd@example.com' }],
      ['/api/auth/signup', { name: 'Nul\u0000', email: 's@example.com', whatsappNumber: '11987654321' }],
    ];
    for (const [url, payload] of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json().message).toBe(INVALID_CHARACTERS);
    }

    const customer = registration('Cliente');
    expect((await post('/api/auth/register', customer)).statusCode).toBe(201);
    const user = { username: customer.username };
    await database.db
      .update(users)
      .set({ accountType: 'active', isActive: true })
      .where(eq(users.username, customer.username));
    const login = await post('/api/auth/login', { username: user.username, password: 'senha-secreta-1' });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const as = (method: 'POST' | 'PUT', url: string, payload: object) =>
      app.inject({ method, url, payload, headers: { cookie, origin: 'http://localhost' } });
    const authed: Array<['POST' | 'PUT', string, object]> = [
      ['POST', '/api/contacts', { name: 'Nul\u0000', phone: '21998765432' }],
      ['POST', '/api/contacts', { name: 'Ana', phone: '21998765432', tags: ['vip\u0000'] }],
      ['POST', '/api/groups', { name: 'Nul\u0000' }],
      ['POST', '/api/groups', { name: 'Grupo', whatsappGroupId: '1\u0000@g.us' }],
      ['PUT', '/api/settings/profile', { name: 'Nul\u0000', email: 'p@example.com', phone: '', company: '' }],
      ['PUT', '/api/settings/profile', { name: 'Nome', email: 'p@example.com', phone: '', company: 'Nul\u0000' }],
    ];
    for (const [method, url, payload] of authed) {
      const res = await as(method, url, payload);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(400);
      expect(res.json().message).toBe(INVALID_CHARACTERS);
    }
  });
});

describe('the log', () => {
  it('holds no password hash, password, token or cookie', async () => {
    const hash = await hashPassword('senha-secreta-1');
    // A query that fails with the hash among its parameters, as the register of a NUL name did.
    const err = await database.db
      .insert(users)
      .values(userWithHash('Nul\u0000', hash))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    app.log.error({ err }, 'unhandled error');
    app.log.error(err);
    app.log.info(
      {
        password: 'senha-em-claro',
        nested: { passwordHash: hash, accessToken: 'EAAB-token', deeper: [{ appSecret: 'segredo-app' }] },
        headers: { cookie: 'disparo_session=abc123', authorization: 'Bearer xyz789' },
      },
      'context',
    );
    await app.inject({
      url: '/api/whatsapp-business/webhook/chave?hub.mode=subscribe&hub.verify_token=token-de-verificacao&hub.challenge=1',
    });

    // Through the error handler: PostgreSQL refusing the data answers 400, logged without values.
    const failed = await app.inject({
      method: 'POST',
      url: '/api/test/failed-insert',
      headers: { origin: 'http://localhost' },
    });
    expect(failed.statusCode, failed.body).toBe(400);
    expect(failed.json().message).toMatch(/inválid/);
    const badUuid = await app.inject({ url: '/api/test/bad-uuid' });
    expect(badUuid.statusCode, badUuid.body).toBe(400);

    const text = log();
    expect(text).toContain('unhandled error');
    expect(text).toContain('input refused by the database');
    expect(text.match(/Failed query: insert into/g)?.length).toBeGreaterThanOrEqual(3);
    for (const secret of [
      '$argon2id$',
      'senha-secreta-2',
      hash,
      'senha-secreta-1',
      'senha-em-claro',
      'EAAB-token',
      'segredo-app',
      'abc123',
      'xyz789',
      'token-de-verificacao',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
