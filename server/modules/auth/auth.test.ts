import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { msg } from '../../../contract/messages';
import { autoReplies, campaigns, contacts, groups, loginFailures, sessions, users } from '../../db/schema';
import { hashToken } from '../../sessions/session-store';
import { appPerFile } from '../../testing/app-per-file';
import { apiCall, createTestApp, createUser, loginAs, sessionCookie, TEST_PASSWORD } from '../../testing/test-app';

const ctx = appPerFile();

const post = (url: string, payload: unknown, cookie?: string) => apiCall(ctx, 'POST', url, { payload, cookie });
const get = (url: string, cookie?: string) => apiCall(ctx, 'GET', url, { cookie });

let n = 0;
const newRegistration = () => {
  n++;
  return {
    name: 'Maria Teste',
    email: `maria${n}.${Date.now()}@example.com`,
    username: `maria_${n}_${Date.now()}`,
    password: 'segredo123',
    whatsappNumber: '(11) 98765-4321',
  };
};

describe('login', () => {
  it('answers the user, sets an HttpOnly SameSite=Lax cookie and stores only a hash of the token', async () => {
    const user = await createUser(ctx);
    const res = await post('/api/auth/login', { username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, user: { id: user.id, username: user.username } });
    expect(res.json().user.passwordHash).toBeUndefined();
    const cookie = res.cookies.find((c) => c.name === 'disparo_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const token = cookie?.value as string;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const stored = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored.map((s) => s.tokenHash)).toEqual([hashToken(token)]);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('marks the cookie Secure when served over HTTPS', async () => {
    const user = await createUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: TEST_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    const secure = await createTestApp({ PUBLIC_URL: 'https://disparo.example.com' });
    try {
      const u2 = await createUser(secure);
      const r2 = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: u2.username, password: TEST_PASSWORD },
      });
      expect(r2.cookies.find((c) => c.name === 'disparo_session')?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('gives one generic message for a wrong password and for an unknown user', async () => {
    const user = await createUser(ctx);
    const wrong = await post('/api/auth/login', { username: user.username, password: 'errada123' });
    const unknown = await post('/api/auth/login', { username: 'ninguem_aqui', password: 'errada123' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(msg.auth.loginFailed);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('validates with the pt-BR messages of the spec', async () => {
    const res = await post('/api/auth/login', { username: 'ab', password: '123' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({
      username: msg.validation.usernameMin,
      password: msg.validation.passwordMin,
    });
    const empty = await ctx.app.inject({ method: 'POST', url: '/api/auth/login' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().success).toBe(false);
    const badJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().message).toBe(msg.validation.invalidRequest);
  });

  it('issues a new token at every login and ends the previous one of that browser', async () => {
    const user = await createUser(ctx);
    const first = await loginAs(ctx, user);
    const res = await post('/api/auth/login', { username: user.username, password: TEST_PASSWORD }, first);
    const second = sessionCookie(res);
    expect(second).not.toBe(first);
    expect((await get('/api/auth/me', first)).statusCode).toBe(401);
    expect((await get('/api/auth/me', second)).statusCode).toBe(200);
  });

  it('adds a growing delay after repeated failures of one login from one address and resets it on success', async () => {
    const user = await createUser(ctx);
    const count = async () =>
      (
        await ctx.database.db
          .select()
          .from(loginFailures)
          .where(and(eq(loginFailures.ip, '127.0.0.1'), eq(loginFailures.loginKey, `user:${user.id}`)))
      )[0]?.failures ?? 0;
    for (let i = 0; i < 3; i++) await post('/api/auth/login', { username: user.username, password: 'errada123' });
    expect(await count()).toBe(3);
    const started = Date.now();
    const res = await post('/api/auth/login', { username: user.username, password: TEST_PASSWORD });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.statusCode).toBe(200);
    expect(await count()).toBe(0);
  });

  it('counts an unknown name like an account, and lets expired counts go', async () => {
    const name = `ninguem_${Date.now()}`;
    for (let i = 0; i < 2; i++) await post('/api/auth/login', { username: name.toUpperCase(), password: 'errada123' });
    const rows = await ctx.database.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.loginKey, `name:${name}`));
    expect(rows.map((r) => [r.ip, r.failures])).toEqual([['127.0.0.1', 2]]);

    // A count older than the 15-minute window restarts at one, and other stale rows are deleted.
    const stale = new Date(Date.now() - 16 * 60_000);
    await ctx.database.db
      .update(loginFailures)
      .set({ lastFailedAt: stale })
      .where(eq(loginFailures.loginKey, `name:${name}`));
    await ctx.database.db
      .insert(loginFailures)
      .values({ ip: '10.9.9.9', loginKey: 'name:velho', failures: 9, lastFailedAt: stale });
    await post('/api/auth/login', { username: name, password: 'errada123' });
    const after = await ctx.database.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.loginKey, `name:${name}`));
    expect(after.map((r) => r.failures)).toEqual([1]);
    expect(await ctx.database.db.select().from(loginFailures).where(eq(loginFailures.loginKey, 'name:velho'))).toEqual(
      [],
    );
  });

  it('is rate-limited per IP with a pt-BR 429', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const codes: number[] = [];
      let last = { message: '' };
      for (let i = 0; i < 4; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'alguem', password: 'errada123' },
          remoteAddress: '10.1.1.1',
        });
        codes.push(r.statusCode);
        last = r.json();
      }
      expect(codes).toEqual([401, 401, 401, 429]);
      expect(last.message).toBe(msg.auth.rateLimited);
      const other = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'alguem', password: 'errada123' },
        remoteAddress: '10.1.1.2',
      });
      expect(other.statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('logout and sessions', () => {
  it('revokes the session at logout', async () => {
    const user = await createUser(ctx);
    const cookie = await loginAs(ctx, user);
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(200);
    const out = await post('/api/auth/logout', undefined, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.json().success).toBe(true);
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(401);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('answers 401 for no cookie and for a forged token', async () => {
    expect((await get('/api/auth/me')).statusCode).toBe(401);
    expect((await get('/api/auth/me', 'disparo_session=forjado')).statusCode).toBe(401);
  });

  it('expires sessions after the idle time and at the absolute limit', async () => {
    const user = await createUser(ctx);
    const idle = await loginAs(ctx, user);
    const absolute = await loginAs(ctx, user);
    const hashOf = (c: string) => hashToken(c.split('=')[1]);
    ctx.app.deps.sessions.clearCache();
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(sessions.tokenHash, hashOf(idle)));
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashOf(absolute)));
    expect((await get('/api/auth/me', idle)).statusCode).toBe(401);
    expect((await get('/api/auth/me', absolute)).statusCode).toBe(401);
  });

  it('slides the idle expiry forward when the session is used', async () => {
    const user = await createUser(ctx);
    const cookie = await loginAs(ctx, user);
    const tokenHash = hashToken(cookie.split('=')[1]);
    const old = new Date(Date.now() - 2 * 3_600_000);
    await ctx.database.db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.tokenHash, tokenHash));
    ctx.app.deps.sessions.clearCache();
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    expect(row.lastSeenAt.getTime()).toBeGreaterThan(old.getTime() + 3_000_000);
  });
});

describe('register', () => {
  it('creates a pending, inactive account that can log in but not act', async () => {
    const input = newRegistration();
    const res = await post('/api/auth/register', input);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: msg.auth.registerSuccess });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.username, input.username));
    expect(row).toMatchObject({ accountType: 'pending', isActive: false, planType: 'basic' });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const cookie = await loginAs(ctx, input, input.password);
    expect((await get('/api/auth/me', cookie)).json()).toMatchObject({ accountType: 'pending' });
    const blocked = await get('/api/metrics', cookie);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'ACCOUNT_PENDING', message: msg.roles.pendingRestricted });
  });

  it('refuses a taken username, case-insensitively, naming only the username', async () => {
    const input = newRegistration();
    expect((await post('/api/auth/register', input)).statusCode).toBe(201);
    const sameUser = await post('/api/auth/register', { ...newRegistration(), username: input.username.toUpperCase() });
    expect(sameUser.statusCode).toBe(409);
    expect(sameUser.json()).toMatchObject({
      success: false,
      code: 'CONFLICT',
      message: msg.auth.usernameTaken,
      fieldErrors: { username: msg.auth.usernameTaken },
    });
    // The same answer when the e-mail is taken too: the username decides alone.
    const both = await post('/api/auth/register', { ...input, username: input.username.toUpperCase() });
    expect(both.body).toBe(sameUser.body);
  });

  it('answers a taken e-mail as a new one and creates nothing', async () => {
    const input = newRegistration();
    expect((await post('/api/auth/register', input)).statusCode).toBe(201);
    const other = newRegistration();
    const sameEmail = await post('/api/auth/register', { ...other, email: input.email.toUpperCase() });
    expect(sameEmail.statusCode).toBe(201);
    expect(sameEmail.json()).toEqual({ success: true, message: msg.auth.registerSuccess });
    expect(await ctx.database.db.select().from(users).where(eq(users.username, other.username))).toHaveLength(0);
  });

  it('answers every §5 message for bad fields', async () => {
    const res = await post('/api/auth/register', {
      name: 'A',
      email: 'x',
      username: 'ab',
      password: '1',
      whatsappNumber: '12',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({
      name: msg.validation.nameMin,
      email: msg.validation.email,
      username: msg.validation.usernameMin,
      password: msg.validation.passwordMin,
      whatsappNumber: msg.validation.whatsappMin,
    });
    // One rule for the number in every form: empty is 'obrigatório', short is 'pelo menos 10 dígitos'.
    const empty = await post('/api/auth/register', { ...newRegistration(), whatsappNumber: ' ' });
    expect(empty.json().fieldErrors).toEqual({ whatsappNumber: msg.validation.whatsappRequired });
    const landing = await post('/api/auth/signup', { name: 'Lia', email: 'lia@example.com', whatsappNumber: '1234' });
    expect(landing.json().fieldErrors).toEqual({ whatsappNumber: msg.validation.whatsappMin });
  });
});

describe('demo signup', () => {
  it('creates a 2-hour read-only demo with strong generated credentials and labelled sample data', async () => {
    const before = Date.now();
    const res = await post('/api/auth/demo-signup', {
      name: 'Ana',
      whatsappNumber: '(11) 99999-0000',
      email: 'ana@example.com',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.credentials.password).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[^A-Za-z0-9]).{16,}$/);
    const expires = Date.parse(body.user.demoExpiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(2 * 3_600_000 + 5000);

    const cookie = await loginAs(ctx, body.credentials, body.credentials.password);
    const me = (await get('/api/auth/me', cookie)).json();
    expect(me).toMatchObject({ accountType: 'demo', planType: 'demo' });
    const db = ctx.database.db;
    const sample = {
      contacts: await db.select().from(contacts).where(eq(contacts.userId, me.id)),
      groups: await db.select().from(groups).where(eq(groups.userId, me.id)),
      campaigns: await db.select().from(campaigns).where(eq(campaigns.userId, me.id)),
    };
    expect(sample.contacts.length).toBeGreaterThan(0);
    expect(sample.contacts.every((c) => c.name.startsWith('Exemplo'))).toBe(true);
    expect(sample.groups.length).toBeGreaterThan(0);
    expect(sample.campaigns).toHaveLength(1);
    expect(sample.campaigns[0].status).toBe('completed');
    expect((await db.select().from(autoReplies).where(eq(autoReplies.userId, me.id))).length).toBeGreaterThan(0);

    const metrics = (await get('/api/metrics', cookie)).json();
    expect(metrics.messagesSent).toBeGreaterThan(0);
    expect(metrics.activeContacts).toBe(sample.contacts.length);
    const list = (await get('/api/campaigns', cookie)).json();
    expect(list[0]).toMatchObject({ status: 'completed', messagesSent: 5, messagesDelivered: 5 });

    const write = await post('/api/auth/register', newRegistration(), cookie);
    expect(write.statusCode).toBe(201); // public routes stay public
    const admin = await ctx.app.inject({ method: 'POST', url: '/api/admin/cleanup', headers: { cookie } });
    expect(admin.statusCode).toBe(403);
  });

  it('lets the same e-mail start another demo', async () => {
    const payload = { name: 'Bia', whatsappNumber: '11999990000', email: 'bia@example.com' };
    expect((await post('/api/auth/demo-signup', payload)).statusCode).toBe(201);
    expect((await post('/api/auth/demo-signup', payload)).statusCode).toBe(201);
  });

  it('validates with the demo messages', async () => {
    const res = await post('/api/auth/demo-signup', { name: 'A', whatsappNumber: '12345', email: 'nope' });
    expect(res.json().fieldErrors).toEqual({
      name: msg.validation.nameMin,
      whatsappNumber: msg.validation.whatsappMin,
      email: msg.validation.email,
    });
    const format = await post('/api/auth/demo-signup', {
      name: 'Ana',
      whatsappNumber: '11 9999x-00000',
      email: 'a@b.co',
    });
    expect(format.json().fieldErrors).toEqual({ whatsappNumber: msg.validation.whatsappFormat });
  });

  it('expires: the session answers 401 everywhere and a new login is refused with 403', async () => {
    const res = await post('/api/auth/demo-signup', {
      name: 'Caio',
      whatsappNumber: '11999990000',
      email: 'caio@example.com',
    });
    const creds = res.json().credentials;
    const cookie = await loginAs(ctx, creds, creds.password);
    await ctx.database.db
      .update(users)
      .set({ demoExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.username, creds.username));
    ctx.app.deps.sessions.clearCache();
    for (const url of ['/api/auth/me', '/api/metrics', '/api/campaigns', '/api/whatsapp-session']) {
      const r = await get(url, cookie);
      expect(r.statusCode, url).toBe(401);
      expect(r.json().message).toBe(msg.auth.demoExpired);
    }
    const again = await post('/api/auth/login', { username: creds.username, password: creds.password });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'DEMO_EXPIRED', message: 'Conta demo expirada!' });
  });
});

describe('landing signup', () => {
  it('creates a pending account with generated credentials', async () => {
    const email = `lead${Date.now()}@example.com`;
    const res = await post('/api/auth/signup', { name: 'Lead', email, whatsappNumber: '(21) 98765-4321' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, user: { email } });
    expect(body.credentials.username).toMatch(/^lead\d+/);
    const cookie = await loginAs(ctx, body.credentials, body.credentials.password);
    expect((await get('/api/auth/me', cookie)).json()).toMatchObject({ accountType: 'pending', isActive: false });
  });

  it('answers a taken e-mail as a new one, with credentials made alike, and creates nothing', async () => {
    const input = newRegistration();
    expect((await post('/api/auth/register', input)).statusCode).toBe(201);
    const res = await post('/api/auth/signup', { name: 'Lead', email: input.email, whatsappNumber: '(21) 98765-4321' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: msg.auth.signupCreated, user: { email: input.email } });
    expect(body.credentials.username).toMatch(/^maria\d+\d{6}$/);
    expect(body.credentials.password).toHaveLength(16);
    const rows = await ctx.database.db.select().from(users).where(eq(users.email, input.email));
    expect(rows.map((r) => r.username)).toEqual([input.username]);
  });

  it('answers the landing form message when a field is missing', async () => {
    const res = await post('/api/auth/signup', { name: '', email: 'a@b.co', whatsappNumber: '11999990000' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors.name).toBe(msg.validation.landingRequired);
  });
});
