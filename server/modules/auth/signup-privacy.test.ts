import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '../../../contract/messages';
import { users } from '../../db/schema';
import { createMailTestApp, linkToken, MAIL_PUBLIC_URL } from '../../testing/mail-app';
import { listen } from '../../testing/raw-http';
import type { SmtpSink } from '../../testing/smtp-sink';

/**
 * A sign-up does not tell whether an e-mail has an account. Over a listening server, as an outsider
 * probes it: a taken address and a free one get the same answer, byte for byte once the generated
 * credentials and the echoed address are set aside; the free one is e-mailed its confirmation link,
 * the taken one's owner is e-mailed that someone tried (spaced, so sign-ups cannot flood the inbox).
 * A taken username is still refused: usernames are public handles.
 */
let ctx: Awaited<ReturnType<typeof createMailTestApp>>;
let sink: SmtpSink;
let base = '';

beforeAll(async () => {
  ctx = await createMailTestApp();
  sink = ctx.sink;
  base = `http://127.0.0.1:${await listen(ctx)}`;
});
afterAll(() => ctx?.close());

interface Answer {
  status: number;
  contentType: string | null;
  setCookie: string | null;
  text: string;
}

async function post(path: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    setCookie: res.headers.get('set-cookie'),
    text: await res.text(),
  };
}

/** The answer with what differs by nature (the input echoed, the random credentials) set to placeholders. */
function shape(a: Answer, email: string): Answer {
  let text = a.text.split(JSON.stringify(email)).join('"<email>"');
  text = text.replace(/"username":"[a-z0-9]+"/, '"username":"<username>"');
  text = text.replace(/"password":"[^"]+"/, '"password":"<password>"');
  return { ...a, text };
}

let n = 0;
const unique = (prefix: string) => `${prefix}${++n}x${Date.now().toString(36)}`;
const registration = (over: Partial<Record<string, string>> = {}) => {
  const username = unique('cadastro');
  return {
    name: 'Pessoa Cadastro',
    email: `${username}@example.com`,
    username,
    password: 'senha-segura-1',
    whatsappNumber: '(11) 98765-4321',
    ...over,
  };
};
const sent = () => ctx.app.deps.mail.mailer.idle();

async function existingOwner(): Promise<{ email: string; username: string }> {
  const owner = registration({ name: 'Dona Conta' });
  expect((await post('/api/auth/register', owner)).status).toBe(201);
  await sink.waitFor(owner.email);
  return owner;
}

describe('POST /api/auth/register', () => {
  it('answers a taken e-mail byte for byte as a free one, and e-mails the owner instead', async () => {
    const owner = await existingOwner();
    const free = registration();
    const taken = registration({ email: owner.email.toUpperCase() });

    const freeAnswer = await post('/api/auth/register', free);
    const takenAnswer = await post('/api/auth/register', taken);
    expect(freeAnswer.status).toBe(201);
    expect(takenAnswer).toEqual(freeAnswer);
    expect(JSON.parse(freeAnswer.text)).toEqual({ success: true, message: msg.auth.registerSuccess });
    expect(freeAnswer.setCookie).toBeNull();

    // The free address gets its confirmation link; the owner of the taken one, a notice with no link to confirm.
    linkToken(await sink.waitFor(free.email), '/confirmar-email');
    const notice = await sink.waitFor(owner.email, 2);
    expect(notice.subject).toBe('Tentativa de cadastro com o seu email – Disparo');
    expect(notice.text).toContain('Olá, Dona Conta,');
    expect(notice.text).toContain('Nenhuma conta nova foi criada');
    expect(notice.text).toContain(`entre com o seu usuário, ${owner.username}`);
    expect(notice.text).toContain(`${MAIL_PUBLIC_URL}/login`);
    expect(notice.text).toContain(`${MAIL_PUBLIC_URL}/esqueci-senha?email=${encodeURIComponent(owner.email)}`);
    expect(notice.text).not.toContain('/confirmar-email');
    expect(notice.html).toContain(`href="${MAIL_PUBLIC_URL}/login"`);

    // Nothing was created for the taken address.
    expect(await ctx.database.db.select().from(users).where(eq(users.username, taken.username))).toHaveLength(0);
    const rows = await ctx.database.db.select().from(users).where(sql`lower(${users.email}) = lower(${owner.email})`);
    expect(rows.map((r) => r.username)).toEqual([owner.username]);

    // Tried again at once: the same answer, and no second notice so soon.
    expect(await post('/api/auth/register', registration({ email: owner.email }))).toEqual(freeAnswer);
    await sent();
    expect(sink.to(owner.email)).toHaveLength(2);
  });

  it('refuses a taken username with the same answer whether or not the e-mail is taken', async () => {
    const owner = await existingOwner();
    const withFreeEmail = await post('/api/auth/register', registration({ username: owner.username.toUpperCase() }));
    const withTakenEmail = await post(
      '/api/auth/register',
      registration({ username: owner.username, email: owner.email }),
    );
    expect(withFreeEmail.status).toBe(409);
    expect(JSON.parse(withFreeEmail.text)).toMatchObject({
      code: 'CONFLICT',
      message: msg.auth.usernameTaken,
      fieldErrors: { username: msg.auth.usernameTaken },
    });
    expect(withTakenEmail).toEqual(withFreeEmail);
    await sent();
    // A refused sign-up sends nothing.
    expect(sink.to(owner.email)).toHaveLength(1);
  });
});

describe('POST /api/auth/signup (landing page)', () => {
  it('answers a taken e-mail as a free one, credentials made alike, and e-mails the owner instead', async () => {
    const owner = await existingOwner();
    const freeEmail = `${unique('lead')}@example.com`;
    const lead = (email: string) => ({ name: 'Lead Landing', email, whatsappNumber: '(21) 98765-4321' });

    const freeAnswer = await post('/api/auth/signup', lead(freeEmail));
    const takenAnswer = await post('/api/auth/signup', lead(owner.email));
    expect(freeAnswer.status).toBe(201);
    expect(shape(takenAnswer, owner.email)).toEqual(shape(freeAnswer, freeEmail));
    expect(freeAnswer.setCookie).toBeNull();

    const free = JSON.parse(freeAnswer.text);
    const taken = JSON.parse(takenAnswer.text);
    expect(free).toMatchObject({ success: true, message: msg.auth.signupCreated, user: { email: freeEmail } });
    expect(taken.user).toEqual({ email: owner.email });
    // Generated the same way: the address's first letters and six digits; a 16-character password.
    const prefix = (email: string) =>
      email
        .split('@')[0]
        .replace(/[^a-z0-9]/g, '')
        .slice(0, 20);
    expect(free.credentials.username).toMatch(new RegExp(`^${prefix(freeEmail)}\\d{6}$`));
    expect(taken.credentials.username).toMatch(new RegExp(`^${prefix(owner.email)}\\d{6}$`));
    expect(taken.credentials.password).toHaveLength(free.credentials.password.length);

    linkToken(await sink.waitFor(freeEmail), '/confirmar-email');
    const notice = await sink.waitFor(owner.email, 2);
    expect(notice.subject).toBe('Tentativa de cadastro com o seu email – Disparo');
    expect(notice.text).toContain(owner.username);
    // No second account with the owner's address.
    const rows = await ctx.database.db.select().from(users).where(sql`lower(${users.email}) = lower(${owner.email})`);
    expect(rows).toHaveLength(1);
  });
});
