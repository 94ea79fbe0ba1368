import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CONFIRMATION_HOURS, emailConfirmationMsg } from '../../../contract/email-confirmation';
import { msg } from '../../../contract/messages';
import { emailConfirmationTokens, users } from '../../db/schema';
import { hashToken } from '../../sessions/session-store';
import { createMailTestApp, linkToken } from '../../testing/mail-app';
import type { ReceivedMail, SmtpSink } from '../../testing/smtp-sink';
import { apiCall, createUser, loginAs } from '../../testing/test-app';

/**
 * 'Confirme seu email', as the registration toast says: a new account (registration or the landing
 * page's signup) is e-mailed a link, the link confirms the address once, and the administrators'
 * list shows who confirmed.
 */
let ctx: Awaited<ReturnType<typeof createMailTestApp>>;
let sink: SmtpSink;

beforeAll(async () => {
  ctx = await createMailTestApp();
  sink = ctx.sink;
});
afterAll(() => ctx?.close());

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

    const mail = await sink.waitFor(email);
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
    const token = tokenOf(await sink.waitFor(email));
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
