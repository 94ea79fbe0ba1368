import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PASSWORD_RESET_PER_ACCOUNT_HOUR,
  PASSWORD_RESET_PER_HOUR,
  PASSWORD_RESET_PER_REQUESTER_HOUR,
  passwordResetMsg,
} from '../../../contract/password-reset';
import { rowsOf } from '../../db/rows';
import { loginFailures, passwordResetTokens } from '../../db/schema';
import { hashToken } from '../../sessions/session-store';
import { appPerFile } from '../../testing/app-per-file';
import { createMailTestApp, linkToken, MAIL_PUBLIC_URL } from '../../testing/mail-app';
import { listen, rawRequest } from '../../testing/raw-http';
import type { ReceivedMail } from '../../testing/smtp-sink';
import {
  apiCall,
  createTestApp,
  createTracedTestApp,
  createUser,
  loginAs,
  TEST_PASSWORD,
} from '../../testing/test-app';

/**
 * 'Esqueci minha senha' against a real SMTP server on loopback: the e-mail that arrives carries the
 * link, the link sets the password once, within 30 minutes, and ends every session; an address
 * without an account gets the same answer and no e-mail; a new request leaves the links already
 * sent alive; links are limited per account and requester, per account and per requester, so a
 * stranger neither kills nor uses up the owner's; production without SMTP says so and production
 * never logs a link.
 */
const PUBLIC_URL = MAIL_PUBLIC_URL;
const ctx = appPerFile(createMailTestApp);

// Each test asks from a client address of its own: links are counted per requester.
let clients = 0;
let client = '';
beforeEach(() => {
  client = `10.1.0.${++clients}`;
});
const forgot = (email: string, from = client) =>
  apiCall(ctx, 'POST', '/api/auth/forgot-password', { payload: { email }, remoteAddress: from });
const reset = (token: string, password: string) =>
  apiCall(ctx, 'POST', '/api/auth/reset-password', { payload: { token, password } });
const me = (cookie: string) => apiCall(ctx, 'GET', '/api/auth/me', { cookie });
const login = (username: string, password: string) =>
  apiCall(ctx, 'POST', '/api/auth/login', { payload: { username, password } });
const sent = () => ctx.app.deps.mail.mailer.idle();

const tokenOf = (mail: ReceivedMail) => linkToken(mail, '/redefinir-senha');

async function linkFor(email: string, nth = 1): Promise<string> {
  expect((await forgot(email)).statusCode).toBe(200);
  return tokenOf(await ctx.sink.waitFor(email, nth));
}

describe('forgot password', () => {
  it('e-mails a link that sets the new password once, ends every session and forgets failed sign-ins', async () => {
    const user = await createUser(ctx, { name: 'Ana <b>Souza</b>' });
    const phone = await loginAs(ctx, user);
    const laptop = await loginAs(ctx, user);
    expect((await login(user.username, 'senha-errada-1')).statusCode).toBe(401);
    expect(
      await ctx.database.db
        .select()
        .from(loginFailures)
        .where(eq(loginFailures.loginKey, `user:${user.id}`)),
    ).not.toHaveLength(0);

    // The address as the person types it: any case.
    const asked = await forgot(user.email.toUpperCase());
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ success: true, message: passwordResetMsg.forgotSent });

    const mail = await ctx.sink.waitFor(user.email);
    expect(mail.subject).toBe('Redefinição de senha – Disparo');
    expect(mail.from).toMatch(/^"?Disparo"? <no-reply@app\.disparo\.example>$/);
    expect(mail.text).toContain('Olá, Ana <b>Souza</b>,');
    expect(mail.text).toContain('30 minutos');
    expect(mail.html).toContain('Ana &lt;b&gt;Souza&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Souza');
    const token = tokenOf(mail);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    // Stored as a hash, valid for 30 minutes.
    const [row] = await ctx.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const minutes = (row.expiresAt.getTime() - row.createdAt.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(30, 1);

    const done = await reset(token, 'nova-senha-segura');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ success: true, message: passwordResetMsg.resetDone });

    expect(
      await ctx.database.db
        .select()
        .from(loginFailures)
        .where(eq(loginFailures.loginKey, `user:${user.id}`)),
    ).toHaveLength(0);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.username, 'nova-senha-segura')).statusCode).toBe(200);

    const again = await reset(token, 'outra-senha-123');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'VALIDATION', message: passwordResetMsg.invalidLink });
    expect((await login(user.username, 'nova-senha-segura')).statusCode).toBe(200);

    const activity = rowsOf<{ detail: string }>(
      await ctx.database.db.execute(
        sql`select detail from activity_events where user_id = ${user.id} and kind = 'settings_changed'`,
      ),
    );
    expect(activity.map((a) => a.detail)).toEqual(['Senha redefinida pelo link enviado por email']);
  });

  it('keeps the earlier links alive when a new one is asked for; using one spends the others', async () => {
    const user = await createUser(ctx);
    const first = await linkFor(user.email, 1);
    const second = await linkFor(user.email, 2);
    const third = await linkFor(user.email, 3);
    expect(new Set([first, second, third]).size).toBe(3);
    // The second is used: the earlier and the later one are spent with it.
    expect((await reset(second, 'nova-senha-1')).statusCode).toBe(200);
    for (const token of [first, third]) {
      const res = await reset(token, 'nova-senha-2');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(passwordResetMsg.invalidLink);
    }
    expect((await login(user.username, 'nova-senha-1')).statusCode).toBe(200);
  });

  it('refuses an expired link', async () => {
    const user = await createUser(ctx);
    const token = await linkFor(user.email);
    await ctx.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.tokenHash, hashToken(token)));
    const expired = await reset(token, 'nova-senha-1');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(passwordResetMsg.invalidLink);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(200);

    for (const token of ['', 'x'.repeat(201), 'nao-existe']) {
      const res = await reset(token, 'nova-senha-1');
      expect(res.statusCode, token).toBe(400);
      expect(res.json().message, token).toBe(passwordResetMsg.invalidLink);
    }
  });

  it('checks the new password as registration does, without spending the link', async () => {
    const user = await createUser(ctx);
    const token = await linkFor(user.email);
    const short = await reset(token, '12345');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Senha deve ter pelo menos 6 caracteres');
    expect((await reset(token, 'seis-ok')).statusCode).toBe(200);
  });

  it('lets one of two requests with the same link through', async () => {
    const user = await createUser(ctx);
    const token = await linkFor(user.email);
    const answers = await Promise.all([reset(token, 'primeira-senha'), reset(token, 'segunda-senha')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('answers an address without an account as one with, and sends it nothing', async () => {
    const user = await createUser(ctx);
    const demo = await createUser(ctx, { accountType: 'demo', planType: 'demo' });
    const known = await forgot(user.email);
    const unknown = await forgot(`ninguem.${Date.now()}@example.com`);
    const demoAnswer = await forgot(demo.email);
    for (const res of [unknown, demoAnswer]) {
      expect(res.statusCode).toBe(known.statusCode);
      expect(res.body).toBe(known.body);
    }
    await sent();
    expect(ctx.sink.to(user.email)).toHaveLength(1);
    expect(ctx.sink.to(demo.email)).toHaveLength(0);
    expect(ctx.sink.received.some((m) => m.to.some((t) => t.startsWith('ninguem.')))).toBe(false);
  });

  it(`sends one account at most ${PASSWORD_RESET_PER_HOUR} links an hour for one requester, with the same answer`, async () => {
    const user = await createUser(ctx);
    const answers = [];
    for (let i = 0; i < PASSWORD_RESET_PER_HOUR + 2; i++) answers.push(await forgot(user.email));
    for (const a of answers) expect(a.body).toBe(answers[0].body);
    await sent();
    expect(ctx.sink.to(user.email)).toHaveLength(PASSWORD_RESET_PER_HOUR);
  });

  it(`sends one account at most ${PASSWORD_RESET_PER_ACCOUNT_HOUR} links an hour whoever asks`, async () => {
    const user = await createUser(ctx);
    const requesters = Math.ceil(PASSWORD_RESET_PER_ACCOUNT_HOUR / PASSWORD_RESET_PER_HOUR) + 1;
    for (let r = 0; r < requesters; r++) {
      const from = `10.2.${clients}.${r + 1}`;
      for (let i = 0; i < PASSWORD_RESET_PER_HOUR; i++) expect((await forgot(user.email, from)).statusCode).toBe(200);
    }
    await sent();
    expect(ctx.sink.to(user.email)).toHaveLength(PASSWORD_RESET_PER_ACCOUNT_HOUR);
  });

  it(`sends one requester at most ${PASSWORD_RESET_PER_REQUESTER_HOUR} links an hour, whichever accounts it asks for`, async () => {
    const accounts = [];
    for (let i = 0; i < PASSWORD_RESET_PER_REQUESTER_HOUR + 2; i++) accounts.push(await createUser(ctx));
    for (const a of accounts) expect((await forgot(a.email)).statusCode).toBe(200);
    await sent();
    const received = accounts.filter((a) => ctx.sink.to(a.email).length > 0);
    expect(received).toHaveLength(PASSWORD_RESET_PER_REQUESTER_HOUR);
    // Another client still gets a link for an account the first one could not reach.
    const missed = accounts.find((a) => ctx.sink.to(a.email).length === 0);
    expect(missed).toBeDefined();
    expect((await forgot(missed?.email ?? '', `10.3.${clients}.1`)).statusCode).toBe(200);
    await ctx.sink.waitFor(missed?.email ?? '');
  });
});

describe("a stranger asking for the owner's address, over HTTP from another client", () => {
  let port = 0;
  beforeAll(async () => {
    port = await listen(ctx);
  });
  const OWNER = '127.0.0.1';
  const STRANGER = '127.0.0.2';
  const forgotFrom = (from: string, email: string) =>
    rawRequest(
      port,
      'POST',
      '/api/auth/forgot-password',
      { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      JSON.stringify({ email }),
      from,
    );

  it("neither kills the link the owner holds nor uses up the owner's requests", async () => {
    const user = await createUser(ctx);
    const asked = await forgotFrom(OWNER, user.email);
    expect(asked.status).toBe(200);
    const owners = tokenOf(await ctx.sink.waitFor(user.email, 1));

    // The stranger asks over and over: the same answer each time, and at most its own share of e-mails.
    for (let i = 0; i < PASSWORD_RESET_PER_HOUR + 3; i++) {
      const res = await forgotFrom(STRANGER, user.email);
      expect(res.status).toBe(200);
      expect(res.body).toBe(asked.body);
    }
    await sent();
    expect(ctx.sink.to(user.email)).toHaveLength(1 + PASSWORD_RESET_PER_HOUR);

    // The owner may still ask for a new one, and gets it.
    expect((await forgotFrom(OWNER, user.email)).status).toBe(200);
    const latest = tokenOf(await ctx.sink.waitFor(user.email, 2 + PASSWORD_RESET_PER_HOUR));

    // The owner's first link still works; using it spends every other one.
    const done = await reset(owners, 'senha-do-dono-1');
    expect(done.statusCode, done.body).toBe(200);
    expect((await reset(latest, 'senha-do-estranho')).statusCode).toBe(400);
    expect((await login(user.username, 'senha-do-dono-1')).statusCode).toBe(200);
  });
});

describe('limits and configuration', () => {
  it('limits requests per client address, in pt-BR', async () => {
    const limited = await createTestApp({ SMTP_URL: ctx.sink.url, LOGIN_RATE_LIMIT: '2' });
    try {
      for (const url of ['/api/auth/forgot-password', '/api/auth/reset-password']) {
        const payload = { email: 'a@example.com', token: 'x', password: 'nova-senha-1' };
        const statuses = [];
        let last = '';
        for (let i = 0; i < 3; i++) {
          const res = await apiCall(limited, 'POST', url, { payload });
          statuses.push(res.statusCode);
          last = res.json().message;
        }
        expect(statuses[2], url).toBe(429);
        expect(last).toBe(passwordResetMsg.rateLimited);
      }
    } finally {
      await limited.close();
    }
  });

  it('says e-mail is not configured in production without SMTP_URL', async () => {
    const production = await createTestApp({ NODE_ENV: 'production' });
    try {
      const user = await createUser(production);
      const res = await apiCall(production, 'POST', '/api/auth/forgot-password', { payload: { email: user.email } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'UNAVAILABLE', message: passwordResetMsg.unavailable });
      const config = await apiCall(production, 'GET', '/api/public-config');
      expect(config.json().emailAvailable).toBe(false);
    } finally {
      await production.close();
    }
    expect((await apiCall(ctx, 'GET', '/api/public-config')).json().emailAvailable).toBe(true);
  });

  it('writes no link to the production log, at its most verbose level', async () => {
    const lines: string[] = [];
    const production = await createTracedTestApp({ NODE_ENV: 'production', SMTP_URL: ctx.sink.url, PUBLIC_URL }, lines);
    const { app, database } = production;
    try {
      const own = { ...ctx, app, database };
      const user = await createUser(own);
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: user.email },
        headers: { origin: 'http://localhost' },
      });
      expect(res.statusCode).toBe(200);
      const token = tokenOf(await ctx.sink.waitFor(user.email));
      // The page the link opens: its address is logged with the token redacted.
      await app.inject({ method: 'GET', url: `/redefinir-senha?token=${token}` });
      const done = await app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token, password: 'senha-nova-de-producao' },
        headers: { origin: 'http://localhost' },
      });
      expect(done.statusCode).toBe(200);
      const log = lines.join('');
      expect(log).toContain('e-mail sent');
      expect(log).toContain('/redefinir-senha?token=[redacted]');
      expect(log).not.toContain(token);
      expect(log).not.toContain('senha-nova-de-producao');
    } finally {
      await production.close();
    }
  });
});
