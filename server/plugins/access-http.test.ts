import cookie from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../db/schema';
import { notifications, users } from '../db/schema';
import { notify } from '../records/notify';
import { pathSpellings } from '../testing/path-spellings';
import { listen, type RawResponse, rawRequest } from '../testing/raw-http';
import { createTestApp, createUser, loginAs, type TestContext } from '../testing/test-app';
import { registerAccessControl } from './access';
import { canonicalPath } from './canonical-url';

/**
 * The attacks of an outside probe, replayed over a real socket: paths spelled so that a check on
 * the raw URL and the router disagree, forged writes without Origin, unknown paths.
 */
let ctx: TestContext;
let port: number;
let victim: UserRow;
const cookies: Record<string, string> = {};
let origin: string;

beforeAll(async () => {
  ctx = await createTestApp();
  port = await listen(ctx);
  origin = `http://127.0.0.1:${port}`;
  victim = await createUser(ctx);
  // A confirmed address: resending its confirmation answers the same (409) however often it is asked.
  cookies.customer = await loginAs(ctx, await createUser(ctx, { emailConfirmedAt: new Date() }));
  cookies.admin = await loginAs(ctx, await createUser(ctx, { accountType: 'admin', planType: 'admin' }));
});
afterAll(() => ctx.close());

const sampleId = '00000000-0000-4000-8000-000000000000';
const plain = (url: string) => url.replace(/:(\w+)/g, sampleId);

/** The same path as the plain one, spelled as clients, proxies and attackers may spell it. */
const spellings = (path: string) => pathSpellings(path, [sampleId]);

const summary = (res: RawResponse) => {
  let code: unknown;
  try {
    code = res.json().code;
  } catch {
    code = res.body.slice(0, 40);
  }
  return { status: res.status, code };
};

describe('canonical paths', () => {
  it('turns every spelling into the plain path', () => {
    for (const s of spellings('/api/admin/users')) {
      expect(canonicalPath(s).toLowerCase(), s).toBe('/api/admin/users');
    }
    expect(canonicalPath('/api/contacts')).toBe('/api/contacts');
    expect(canonicalPath('/')).toBe('/');
    expect(canonicalPath('/../..')).toBe('/');
    expect(canonicalPath('/a%zz/b')).toBe('/a%25zz/b');
  });
});

describe('every route answers the same whatever the spelling of its path', () => {
  const callAs = (who: 'anonymous' | 'customer', method: string, path: string) => {
    const headers: Record<string, string> = { origin };
    if (who === 'customer') headers.cookie = cookies.customer;
    const hasBody = !['GET', 'DELETE'].includes(method);
    if (hasBody) headers['content-type'] = 'application/json';
    return rawRequest(port, method, path, headers, hasBody ? '{}' : undefined);
  };

  for (const who of ['anonymous', 'customer'] as const) {
    it(`as ${who}`, async () => {
      const routes = ctx.app.deps.routes.filter(
        // Signing out would end the session the rest of the loop uses; it is public and covered anonymously.
        (r) => !(who === 'customer' && r.url === '/api/auth/logout'),
      );
      expect(routes.length).toBeGreaterThan(30);
      for (const r of routes) {
        const path = plain(r.url);
        const expected = summary(await callAs(who, r.method, path));
        for (const spelled of spellings(path)) {
          const got = summary(await callAs(who, r.method, spelled));
          expect(got, `${who} ${r.method} ${spelled} (plain: ${path})`).toEqual(expected);
        }
      }
    });
  }
});

describe('the admin routes of the probe', () => {
  it('refuses them to an outsider through encoded paths, and changes nothing', async () => {
    const evil = { origin: 'http://evil.example' };
    const attempts: Array<[string, string, Record<string, string>, string?]> = [
      ['GET', '/%61pi/admin/users', {}],
      ['DELETE', `/%61pi/admin/users/${victim.id}`, evil],
      [
        'PATCH',
        `/ap%69/admin/users/${victim.id}`,
        { ...evil, 'content-type': 'application/json' },
        '{"isActive":true,"planType":"enterprise"}',
      ],
      ['POST', '/%61%70%69/admin/cleanup', {}],
    ];
    for (const [method, path, headers, body] of attempts) {
      const res = await rawRequest(port, method, path, headers, body);
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(401);
      expect(res.status, `${method} ${path}`).toBeLessThanOrEqual(403);
      expect(res.body).not.toContain(victim.username);
    }
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, victim.id));
    expect(row.planType).toBe(victim.planType);
  });

  it('refuses them to a customer through every spelling', async () => {
    for (const spelled of spellings('/api/admin/users')) {
      const res = await rawRequest(port, 'GET', spelled, { cookie: cookies.customer });
      expect(res.status, spelled).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
  });

  it('still serves an administrator', async () => {
    const res = await rawRequest(port, 'GET', '/%61pi/admin/users', { cookie: cookies.admin });
    expect(res.status).toBe(200);
    expect(res.body).toContain(victim.username);
  });
});

describe('another account’s notifications', () => {
  it('cannot be read nor marked through any spelling of their paths', async () => {
    await notify(ctx.database.db, ctx.app.log, victim.id, {
      kind: 'contacts_imported',
      title: 'Aviso da vítima',
      body: 'Importação da vítima',
    });
    const [row] = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, victim.id));
    const headers = { cookie: cookies.customer, origin, 'content-type': 'application/json' };
    for (const spelled of [...spellings('/api/notifications/read'), '/api/notifications/read']) {
      const res = await rawRequest(port, 'POST', spelled, headers, JSON.stringify({ ids: [row.id] }));
      expect(res.status, spelled).toBe(200);
      expect(res.json().marked, spelled).toBe(0);
    }
    for (const spelled of [...spellings('/api/notifications'), '/api/notifications']) {
      const res = await rawRequest(port, 'GET', spelled, { cookie: cookies.customer });
      expect(res.status, spelled).toBe(200);
      expect(res.body, spelled).not.toContain('vítima');
    }
    const [after] = await ctx.database.db.select().from(notifications).where(eq(notifications.id, row.id));
    expect(after.readAt).toBeNull();
  });
});

describe('cross-site writes', () => {
  const write = (path: string, headers: Record<string, string>, body = '{"name":"X","phone":"21998765432"}') =>
    rawRequest(port, 'POST', path, { cookie: cookies.customer, ...headers }, body);

  it('refuses a cookie-carrying write with neither Origin nor Sec-Fetch-Site, whatever its content type', async () => {
    for (const type of ['text/plain', 'application/json', 'application/x-www-form-urlencoded']) {
      for (const path of ['/api/contacts', '/%61pi/contacts', '/API/contacts/']) {
        const res = await write(path, { 'content-type': type });
        expect(res.status, `${type} ${path}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'CROSS_SITE', message: expect.stringMatching(/origem/) });
      }
    }
  });

  it('refuses another site on every spelling, and lets the same origin through', async () => {
    for (const spelled of spellings('/api/contacts')) {
      const res = await write(spelled, { 'content-type': 'application/json', origin: 'http://evil.example' });
      expect(res.status, spelled).toBe(403);
      const sameSite = await write(spelled, { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' });
      expect(sameSite.status, spelled).toBe(403);
    }
    const ok = await write('/api/contacts', { 'content-type': 'application/json', origin });
    expect(ok.status).toBe(200);
  });

  it('lets server-to-server calls without cookie or browser headers through', async () => {
    const res = await rawRequest(
      port,
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json' },
      '{"username":"ninguem","password":"errada123"}',
    );
    expect(res.status).toBe(401);
  });
});

describe('unknown paths and bodies', () => {
  it('answers an unmatched request 404 before any other check', async () => {
    for (const path of ['/api/nada', '/%61pi/admin/nada', '/api/admin/users/x/y']) {
      const res = await rawRequest(port, 'DELETE', path, { origin: 'http://evil.example', cookie: cookies.customer });
      expect(res.status, path).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });

  it('refuses a JSON body that is not valid UTF-8, and stores nothing', async () => {
    const body = Buffer.concat([
      Buffer.from('{"name":"Inv'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('lido","phone":"21998761111"}'),
    ]);
    const res = await rawRequest(
      port,
      'POST',
      '/api/contacts',
      { cookie: cookies.customer, origin, 'content-type': 'application/json' },
      body,
    );
    expect(res.status).toBe(400);
    expect(res.json().message).toMatch(/UTF-8/);
    const list = await rawRequest(port, 'GET', '/api/contacts?search=21998761111', { cookie: cookies.customer });
    expect(list.body).not.toContain('\ufffd');
    expect(list.body).not.toContain('lido');
  });
});

describe('default deny', () => {
  it('refuses to register a route that declares no access', async () => {
    const app = Fastify();
    await app.register(cookie);
    registerAccessControl(app, {} as never, () => {});
    expect(() => app.get('/api/open', async () => 'ok')).toThrow(/declares no access/);
    expect(() => app.get('/api/closed', { config: { access: 'admin' } }, async () => 'ok')).not.toThrow();
    await app.close();
  });
});
