import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EMAIL_CONFIRMATION_HOURS,
  EMAIL_CONFIRMATION_PER_HOUR,
  emailConfirmationMsg,
} from '../../../contract/email-confirmation';
import { msg } from '../../../contract/messages';
import { emailConfirmationTokens, users } from '../../db/schema';
import { hashToken } from '../../sessions/session-store';
import { appPerFile } from '../../testing/app-per-file';
import { signIn } from '../../testing/http-session';
import { createMailTestApp, linkToken } from '../../testing/mail-app';
import { apiFetch, type HttpSession, listen } from '../../testing/raw-http';
import type { ReceivedMail } from '../../testing/smtp-sink';
import { apiCall, createUser, loginAs, TEST_PASSWORD } from '../../testing/test-app';

/**
 * 'Confirme seu email', as the registration toast says: a new account (registration or the landing
 * page's signup) is e-mailed a link, the link confirms the address once, and the administrators'
 * list shows who confirmed.
 */
const ctx = appPerFile(createMailTestApp);

const confirm = (token: string) => apiCall(ctx, 'POST', '/api/auth/confirm-email', { payload: { token } });

const tokenOf = (mail: ReceivedMail) => linkToken(mail, '/confirmar-email');

const confirmedAt = async (email: string) =>
  (await ctx.database.db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.email, email)))[0]?.at;

describe('e-mail confirmation', () => {
  it('a registration is e-mailed a link that confirms the address once', async () => {
    const email = `confirma${Date.now()}@example.com`;
    const registered = await apiCall(ctx, 'POST', '/api/auth/register', {
      payload: {
        name: 'Clara <i>Confirma</i>',
        email,
        username: `clara${Date.now()}`,
        password: 'senha-segura-1',
        whatsappNumber: '+55 11 98765-4321',
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json()).toEqual({ success: true, message: msg.auth.registerSuccess });

    const mail = await ctx.sink.waitFor(email);
    expect(mail.subject).toBe('Confirme seu email – Disparo');
    expect(mail.text).toContain('Olá, Clara <i>Confirma</i>,');
    expect(mail.html).not.toContain('<i>Confirma');
    expect(mail.text).toContain(`${EMAIL_CONFIRMATION_HOURS} horas`);
    const token = tokenOf(mail);
    const [row] = await ctx.database.db
      .select()
      .from(emailConfirmationTokens)
      .where(eq(emailConfirmationTokens.tokenHash, hashToken(token)));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await confirmedAt(email)).toBeNull();

    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ success: true, message: emailConfirmationMsg.done });
    expect(await confirmedAt(email)).toBeInstanceOf(Date);

    // Once only.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(emailConfirmationMsg.invalidLink);

    // The administrator sees it on the pending account.
    const admin = await createUser(ctx, { accountType: 'admin', planType: 'admin' });
    const list = await apiCall(ctx, 'GET', '/api/admin/users', { cookie: await loginAs(ctx, admin) });
    const listed = (list.json() as Array<{ email: string; emailConfirmedAt: string | null }>).find(
      (u) => u.email === email,
    );
    expect(listed?.emailConfirmedAt).toEqual(expect.any(String));
  });

  it("the landing page's signup is e-mailed a link too", async () => {
    const email = `landing${Date.now()}@example.com`;
    const res = await apiCall(ctx, 'POST', '/api/auth/signup', {
      payload: { name: 'Lia Landing', email, whatsappNumber: '+55 11 98765-4322' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const token = tokenOf(await ctx.sink.waitFor(email));
    expect((await confirm(token)).statusCode).toBe(200);
    expect(await confirmedAt(email)).toBeInstanceOf(Date);
  });

  it('refuses an unknown, an expired or an empty link with one message', async () => {
    const unknown = await confirm('x'.repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(emailConfirmationMsg.invalidLink);

    const user = await createUser(ctx, { accountType: 'pending' });
    await ctx.database.db
      .insert(emailConfirmationTokens)
      .values({ tokenHash: hashToken('expirado'), userId: user.id, expiresAt: new Date(Date.now() - 1000) });
    const expired = await confirm('expirado');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(emailConfirmationMsg.invalidLink);
    expect(await confirmedAt(user.email)).toBeNull();

    const empty = await confirm('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(emailConfirmationMsg.invalidLink);
  });
});

describe("'Reenviar e-mail de confirmação', over HTTP", () => {
  let base = '';
  beforeAll(async () => {
    base = `http://127.0.0.1:${await listen(ctx)}`;
  });

  /** A new pending account registered over HTTP, its first link arrived, signed in. */
  async function registered(): Promise<{ email: string; session: HttpSession; firstToken: string }> {
    const username = `reenvio${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const email = `${username}@example.com`;
    const res = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        name: 'Rui Reenvio',
        email,
        username,
        password: 'senha-segura-1',
        whatsappNumber: '+55 11 98765-4321',
      }),
    });
    expect(res.status).toBe(201);
    const firstToken = tokenOf(await ctx.sink.waitFor(email));
    return { email, session: await signIn(base, { username, password: 'senha-segura-1' }), firstToken };
  }
  const resend = (s: HttpSession) => apiFetch(s.base, s.cookie, 'POST', '/api/auth/resend-confirmation');

  it('e-mails a new link to the signed-in account; the earlier one still works; refused once confirmed', async () => {
    const { email, session, firstToken } = await registered();
    const res = await resend(session);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, message: emailConfirmationMsg.resent(email) });
    const second = tokenOf(await ctx.sink.waitFor(email, 2));
    expect(second).not.toBe(firstToken);

    expect((await apiFetch(base, session.cookie, 'GET', '/api/auth/me')).body.emailConfirmedAt).toBeNull();
    expect((await confirm(firstToken)).statusCode).toBe(200);
    expect(await confirmedAt(email)).toBeInstanceOf(Date);
    // The open session sees it at once (its cached account is dropped).
    expect((await apiFetch(base, session.cookie, 'GET', '/api/auth/me')).body.emailConfirmedAt).toEqual(
      expect.any(String),
    );
    const again = await resend(session);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', message: emailConfirmationMsg.alreadyConfirmed });
    await ctx.app.deps.mail.mailer.idle();
    expect(ctx.sink.to(email)).toHaveLength(2);
  });

  it(`sends at most ${EMAIL_CONFIRMATION_PER_HOUR} an hour, the registration's included, then says when to retry`, async () => {
    const { email, session } = await registered();
    for (let i = 1; i < EMAIL_CONFIRMATION_PER_HOUR; i++) expect((await resend(session)).status).toBe(200);
    await ctx.sink.waitFor(email, EMAIL_CONFIRMATION_PER_HOUR);

    const refused = await fetch(`${base}/api/auth/resend-confirmation`, {
      method: 'POST',
      headers: { cookie: session.cookie, origin: base },
    });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: emailConfirmationMsg.resendLimited(Math.ceil(retryAfter / 60)),
    });
    expect(emailConfirmationMsg.resendLimited(60)).toBe(
      `Você já recebeu ${EMAIL_CONFIRMATION_PER_HOUR} emails de confirmação na última hora. Tente novamente em 60 minutos.`,
    );
    await ctx.app.deps.mail.mailer.idle();
    expect(ctx.sink.to(email)).toHaveLength(EMAIL_CONFIRMATION_PER_HOUR);

    // An hour later the oldest no longer counts.
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    await ctx.database.db
      .update(emailConfirmationTokens)
      .set({ createdAt: sql`now() - interval '61 minutes'` })
      .where(eq(emailConfirmationTokens.userId, user.id));
    expect((await resend(session)).status).toBe(200);
    await ctx.sink.waitFor(email, EMAIL_CONFIRMATION_PER_HOUR + 1);
  });

  it('needs a session, and a demo account may not use it', async () => {
    const anonymous = await apiFetch(base, '', 'POST', '/api/auth/resend-confirmation');
    expect(anonymous.status).toBe(401);
    const demo = await createUser(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const demoSession = await signIn(base, { username: demo.username, password: TEST_PASSWORD });
    expect((await resend(demoSession)).status).toBe(403);
  });
});
