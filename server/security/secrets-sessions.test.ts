import { request } from 'node:http';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '../../contract/messages';
import { settingsMsg } from '../../contract/settings';
import { rowsOf } from '../db/rows';
import { loginFailures, users, whatsappBusinessAccounts } from '../db/schema';
import { ensureAdmin } from '../modules/auth';
import { inboundDelivery } from '../testing/cloud-account';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { FakeOpenAi } from '../testing/fake-openai';
import { pdfText } from '../testing/pdf-text';
import { listen } from '../testing/raw-http';
import { sendingSettings } from '../testing/sending-settings';
import { createTestApp, createTracedTestApp, createUser, TEST_PASSWORD, type TestContext } from '../testing/test-app';
import { signBody } from '../whatsapp/cloud-api/webhook';

/**
 * Secrets and sessions over the wire. (a) No API answer, to anybody, holds a secret: the Cloud API
 * access token and app secret, the OpenAI key, passwords and their hashes, session tokens, the
 * server's own keys; and the log of all of it, at its most verbose level, holds none either.
 * (b) The session cookie's flags, a new token at every login, revocation at logout and at a
 * password change, the login rate limit per IP and the growing delay per (address, login), which
 * slows unknown usernames like known ones and spares the owner at another address; and a sign-up
 * that does not tell whether a username or an e-mail is taken.
 */
const ACCESS_TOKEN = 'EAAG-token-de-acesso-secreto-7f3a9c';
const APP_SECRET = 'segredo-do-app-meta-91b2';
const OPENAI_KEY = 'sk-disparo-chave-openai-secreta-5d8e';
const SESSION_SECRET = 'segredo-de-sessao-do-servidor-com-mais-de-32-caracteres';
const ENCRYPTION_KEY = 'a1'.repeat(32);
const REGISTERED_PASSWORD = 'senha-do-cadastro-4821';
const NEW_PASSWORD = 'senha-nova-trocada-9377';
/** Every secret the server is given or the tests type: none may appear in an answer or a log line. */
const CONFIGURED_SECRETS = [
  ACCESS_TOKEN,
  APP_SECRET,
  OPENAI_KEY,
  SESSION_SECRET,
  ENCRYPTION_KEY,
  REGISTERED_PASSWORD,
  NEW_PASSWORD,
  TEST_PASSWORD,
];
const PHONE_NUMBER_ID = '109000000077';
const WABA_ID = '209077';
const CUSTOMER_PHONE = '5511987650077';

let graph: FakeGraphApi;
let openai: FakeOpenAi;
let ctx: TestContext;
let base: string;
let port: number;
const logLines: string[] = [];

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  openai = await new FakeOpenAi().start();
  openai.respond = () => 'Olá! Nossos planos começam em R$ 10.';
  // The most verbose level: whatever any part of the server would ever write.
  ctx = await createTracedTestApp(
    {
      NODE_ENV: 'test',
      LOGIN_RATE_LIMIT: '1000',
      GRAPH_API_URL: graph.url,
      GRAPH_API_VERSION: 'v26.0',
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      SESSION_SECRET,
      ENCRYPTION_KEY,
    },
    logLines,
  );
  port = await listen(ctx);
  base = `http://127.0.0.1:${port}`;
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await graph.stop();
  await openai.stop();
});

interface Answer {
  label: string;
  status: number;
  headers: Headers;
  body: string;
}

/** Every answer of this file, searched for secrets at the end of (a). */
const answers: Answer[] = [];

async function call(
  method: string,
  path: string,
  opts: { cookie?: string; json?: unknown; raw?: string; headers?: Record<string, string>; to?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { origin: opts.to ?? base, ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${opts.to ?? base}${path}`, {
    method,
    headers,
    body: opts.json === undefined ? opts.raw : JSON.stringify(opts.json),
    redirect: 'manual',
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  // A PDF's words are in compressed streams: searched as text, and as bytes.
  const body = res.headers.get('content-type')?.startsWith('application/pdf')
    ? `${pdfText(bytes).text}\n${bytes.toString('latin1')}`
    : bytes.toString('utf8');
  const answer = { label: `${method} ${path}`, status: res.status, headers: res.headers, body };
  answers.push(answer);
  return answer;
}

const json = (a: Answer) => JSON.parse(a.body);

interface SessionCookie {
  value: string;
  attributes: string[];
}

function sessionCookieOf(a: Answer): SessionCookie | undefined {
  const line = a.headers.getSetCookie().find((c) => c.startsWith('disparo_session='));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';').map((s) => s.trim());
  return { value: pair.slice('disparo_session='.length), attributes: attributes.map((s) => s.toLowerCase()) };
}

async function login(username: string, password: string, opts: { cookie?: string; to?: string } = {}) {
  const answer = await call('POST', '/api/auth/login', { json: { username, password }, ...opts });
  const cookie = sessionCookieOf(answer);
  return { answer, cookie: cookie ? `disparo_session=${cookie.value}` : undefined, set: cookie };
}

async function signedIn(username: string, password = TEST_PASSWORD): Promise<string> {
  const { answer, cookie } = await login(username, password);
  expect(answer.status, answer.body).toBe(200);
  return cookie as string;
}

const me = (cookie: string) => call('GET', '/api/auth/me', { cookie });

describe('(a) no secret in any answer', () => {
  it('answers every GET route to visitors, customers and administrators without a token, key, password or hash', async () => {
    const admin = await createUser(ctx, { accountType: 'admin', planType: 'admin' });
    const adminCookie = await signedIn(admin.username);

    // A customer who signs up with a password of their own, is approved, and changes it.
    const username = `cliente_seg_${Date.now().toString(36)}`;
    const registered = await call('POST', '/api/auth/register', {
      json: {
        name: 'Cliente Segredo',
        email: `${username}@example.com`,
        username,
        password: REGISTERED_PASSWORD,
        whatsappNumber: '(11) 98765-4321',
      },
    });
    expect(registered.status, registered.body).toBe(201);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.username, username));
    const approved = await call('PATCH', `/api/admin/users/${row.id}`, {
      cookie: adminCookie,
      json: { isActive: true, accountType: 'active', planType: 'professional' },
    });
    expect(approved.status, approved.body).toBe(200);
    let cookie = await signedIn(username, REGISTERED_PASSWORD);
    const changed = await call('POST', '/api/auth/change-password', {
      cookie,
      json: { currentPassword: REGISTERED_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    });
    expect(changed.status, changed.body).toBe(200);
    cookie = await signedIn(username, NEW_PASSWORD);
    const other = await signedIn((await createUser(ctx)).username);

    // Its Cloud API credentials, its chatbot on OpenAI, and some of everything.
    graph.addPhone(PHONE_NUMBER_ID, ACCESS_TOKEN, '551130000077', 'Loja Segura', {
      about: 'Atendimento',
      profile_picture_url: 'https://pps.whatsapp.net/v/foto.jpg',
      businessAccountId: WABA_ID,
    });
    const configured = await call('POST', '/api/whatsapp-business/configure', {
      cookie,
      json: {
        accessToken: ACCESS_TOKEN,
        phoneNumberId: PHONE_NUMBER_ID,
        businessAccountId: WABA_ID,
        appId: '123456',
        appSecret: APP_SECRET,
      },
    });
    expect(configured.status, configured.body).toBe(200);
    const { webhookPath, verifyToken } = json(configured).config as { webhookPath: string; verifyToken: string };
    const channel = await call('PUT', '/api/settings/whatsapp', {
      cookie,
      json: { ...sendingSettings('cloud', 1000), messageDelay: 2 },
    });
    expect(channel.status, channel.body).toBe(200);
    expect((await call('POST', '/api/bot-config', { cookie, json: { isEnabled: true, aiEnabled: true } })).status).toBe(
      200,
    );
    const contact = await call('POST', '/api/contacts', {
      cookie,
      json: { name: 'Ana', phone: '21998765432', tags: ['vip'] },
    });
    expect(contact.status, contact.body).toBe(200);
    const group = json(await call('POST', '/api/groups', { cookie, json: { name: 'Clientes VIP' } }));
    const saved = json(
      await call('POST', '/api/messages', { cookie, json: { title: 'Boas-vindas', content: 'Olá, {{nome}}!' } }),
    );
    const campaign = json(
      await call('POST', '/api/campaigns', {
        cookie,
        json: { name: 'Promoção', message: 'Olá! Aproveite.', targetType: 'all', status: 'draft' },
      }),
    );
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'foto.png');
    const uploaded = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      body: form,
      headers: { cookie, origin: base },
    });
    expect(uploaded.status).toBe(200);
    const upload = (await uploaded.json()) as { id: string };

    // A customer writes in through the signed webhook; the bot answers through OpenAI.
    const delivery = inboundDelivery(
      { phoneNumberId: PHONE_NUMBER_ID, displayPhoneNumber: '551130000077', businessAccountId: WABA_ID },
      CUSTOMER_PHONE,
      `wamid.SEG${Date.now()}`,
      { type: 'text', text: { body: 'Quanto custa o plano?' } },
      'Bruno Cliente',
    );
    const signed = (secret: string) => ({
      raw: delivery,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(delivery, secret) },
    });
    const delivered = await call('POST', webhookPath, signed(APP_SECRET));
    expect(delivered.status, delivered.body).toBe(200);
    const forged = await call('POST', webhookPath, signed('outro-segredo'));
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    // The webhook answers first: the message reaches the chatbot once its record is made.
    await ctx.app.deps.cloudApi.settled();
    await ctx.app.deps.chatbot.idle();
    // The key was in use: the check below is about a secret the server really holds.
    expect(openai.requests.map((r) => r.authorization)).toContain(`Bearer ${OPENAI_KEY}`);
    expect(graph.sent.filter((m) => m.to === CUSTOMER_PHONE).length).toBeGreaterThan(0);

    // Every GET route of the table, with real ids, as each kind of caller.
    const numbers = json(await call('GET', '/api/connections', { cookie })).connections as Array<{ id: string }>;
    const ids: Record<string, string> = {
      '/api/connections/': numbers[0].id,
      '/api/campaigns/': campaign.id,
      '/api/groups/': group.group.id,
      '/api/messages/': saved.savedMessage.id,
      '/api/uploads/': upload.id,
    };
    const pathOf = (url: string) =>
      url
        .replace(':accountKey', webhookPath.split('/').pop() as string)
        .replace(':phone', CUSTOMER_PHONE)
        .replace(':id', Object.entries(ids).find(([prefix]) => url.startsWith(prefix))?.[1] ?? ':id');
    // An open invitation to the customer's team: its link is read below like any page's data.
    const invited = json(
      await call('POST', '/api/team/invitations', {
        cookie,
        json: { name: 'Ana Atendente', email: `ana.${Date.now()}@example.com`, role: 'agent' },
      }),
    ) as { inviteUrl: string };
    const inviteToken = new URL(invited.inviteUrl).searchParams.get('token') as string;
    const queries: Record<string, string> = {
      '/api/whatsapp-business/webhook/:accountKey': `?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=4242`,
      '/api/auth/invitation': `?token=${inviteToken}`,
    };
    const callers: Record<string, string | undefined> = {
      anonymous: undefined,
      customer: cookie,
      other,
      admin: adminCookie,
    };
    const gets = ctx.app.deps.routes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(40);
    const answered = new Set<string>();
    for (const route of gets) {
      const path = pathOf(route.url) + (queries[route.url] ?? '');
      expect(path, route.url).not.toContain(':');
      for (const [who, as] of Object.entries(callers)) {
        const answer = await call('GET', path, { cookie: as });
        answer.label = `${who} GET ${path}`;
        expect(answer.status, `${answer.label}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
        if (answer.status === 200) answered.add(route.url);
        // No GET sets or refreshes a cookie.
        expect(answer.headers.getSetCookie(), answer.label).toEqual([]);
      }
    }
    // Each route was read with real content by somebody, so the search below saw what it serves;
    // the members of a WhatsApp group need a connected WhatsApp Web number (answered 409 here).
    expect(gets.map((r) => r.url).filter((url) => !answered.has(url))).toEqual(['/api/groups/:id/members']);

    // What the server holds that nobody may read back, in clear or as stored.
    const stored = rowsOf<{ password_hash: string }>(
      await ctx.database.db.execute(sql`select password_hash from users`),
    );
    const invitationHashes = rowsOf<{ token_hash: string }>(
      await ctx.database.db.execute(sql`select token_hash from team_invitations`),
    );
    expect(invitationHashes.length).toBeGreaterThan(0);
    const tokenHashes = rowsOf<{ token_hash: string }>(
      await ctx.database.db.execute(sql`select token_hash from sessions`),
    );
    const [waba] = await ctx.database.db.select().from(whatsappBusinessAccounts);
    expect(waba.accessToken).not.toBe(ACCESS_TOKEN);
    const sessionTokens = answers.flatMap((a) => {
      const c = sessionCookieOf(a);
      return c?.value ? [c.value] : [];
    });
    expect(sessionTokens.length).toBeGreaterThanOrEqual(4);
    const secrets = [
      ...CONFIGURED_SECRETS,
      '$argon2',
      waba.accessToken,
      waba.appSecret as string,
      ...stored.map((r) => r.password_hash),
      ...tokenHashes.map((r) => r.token_hash),
      ...invitationHashes.map((r) => r.token_hash),
      ...sessionTokens,
    ];
    expect(answers.length).toBeGreaterThan(gets.length * 4);
    for (const answer of answers) {
      const headers = [...answer.headers.entries()]
        .filter(([name]) => name !== 'set-cookie')
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n');
      for (const secret of secrets) {
        expect(answer.body.includes(secret), `${answer.label} holds ${secret.slice(0, 12)}…`).toBe(false);
        expect(headers.includes(secret), `${answer.label} headers hold ${secret.slice(0, 12)}…`).toBe(false);
      }
    }
    // The one answer that carries a session token is the login's own cookie, and only its own.
    for (const answer of answers) {
      const own = sessionCookieOf(answer)?.value;
      const setCookies = answer.headers.getSetCookie().join('\n');
      for (const token of sessionTokens) {
        if (token !== own) expect(setCookies.includes(token), answer.label).toBe(false);
      }
    }
  }, 120_000);
});

describe('(b) the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, with a lifetime, over plain HTTP without Secure', async () => {
    const user = await createUser(ctx);
    const { answer, set } = await login(user.username, TEST_PASSWORD);
    expect(answer.status).toBe(200);
    expect(set?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(set?.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(set?.attributes.some((a) => /^max-age=\d+$/.test(a))).toBe(true);
    expect(set?.attributes).not.toContain('secure');
    expect(json(answer).user.passwordHash).toBeUndefined();
  });

  it('is Secure behind an HTTPS proxy the server trusts, and with an https PUBLIC_URL', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    const published = await createTestApp({ PUBLIC_URL: 'https://disparo.example.com' });
    try {
      const proxiedAt = `http://127.0.0.1:${await listen(proxied)}`;
      const publishedAt = `http://127.0.0.1:${await listen(published)}`;
      for (const [app, to, headers, secure] of [
        [proxied, proxiedAt, { 'x-forwarded-proto': 'https' }, true],
        [proxied, proxiedAt, {}, false],
        [published, publishedAt, {}, true],
      ] as const) {
        const user = await createUser(app);
        const answer = await call('POST', '/api/auth/login', {
          to,
          headers,
          json: { username: user.username, password: TEST_PASSWORD },
        });
        expect(answer.status, answer.body).toBe(200);
        expect(sessionCookieOf(answer)?.attributes.includes('secure'), JSON.stringify(headers)).toBe(secure);
      }
    } finally {
      await proxied.close();
      await published.close();
    }
  }, 60_000);

  it('is clearing at logout with the same Path', async () => {
    const user = await createUser(ctx);
    const cookie = await signedIn(user.username);
    const out = await call('POST', '/api/auth/logout', { cookie });
    expect(out.status).toBe(200);
    const cleared = sessionCookieOf(out);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toContain('path=/');
    expect(cleared?.attributes.some((a) => a === 'max-age=0' || a.startsWith('expires=thu, 01 jan 1970'))).toBe(true);
  });
});

describe('(b) session lifecycle', () => {
  it('issues a new token at login and ends the one the browser had, whether real or planted', async () => {
    const user = await createUser(ctx);
    const first = await signedIn(user.username);
    expect((await me(first)).status).toBe(200);
    const again = await login(user.username, TEST_PASSWORD, { cookie: first });
    expect(again.cookie).toBeDefined();
    expect(again.cookie).not.toBe(first);
    expect((await me(first)).status).toBe(401);
    expect((await me(again.cookie as string)).status).toBe(200);

    // A token chosen by someone else and planted in the browser is never the one the login issues.
    const planted = 'disparo_session=token-escolhido-por-um-atacante-0123456789abcdef';
    const fixed = await login(user.username, TEST_PASSWORD, { cookie: planted });
    expect(fixed.cookie).toBeDefined();
    expect(fixed.cookie).not.toBe(planted);
    expect((await me(planted)).status).toBe(401);
    expect((await me(fixed.cookie as string)).status).toBe(200);
  });

  it('ends the session at logout, for every route, while the user’s other sessions go on', async () => {
    const user = await createUser(ctx);
    const laptop = await signedIn(user.username);
    const phone = await signedIn(user.username);
    // Read once so the session sits in the server's cache.
    expect((await call('GET', '/api/contacts', { cookie: laptop })).status).toBe(200);
    expect((await call('POST', '/api/auth/logout', { cookie: laptop })).status).toBe(200);
    for (const path of ['/api/auth/me', '/api/contacts', '/api/settings/profile']) {
      const answer = await call('GET', path, { cookie: laptop });
      expect(answer.status, path).toBe(401);
      expect(json(answer).success).toBe(false);
    }
    expect((await me(phone)).status).toBe(200);
  });

  it('ends every other session of the account at a password change, and keeps the one that changed it', async () => {
    const user = await createUser(ctx);
    const here = await signedIn(user.username);
    const elsewhere = [await signedIn(user.username), await signedIn(user.username)];
    const bystander = await signedIn((await createUser(ctx)).username);
    for (const c of elsewhere) expect((await call('GET', '/api/contacts', { cookie: c })).status).toBe(200);

    const wrong = await call('POST', '/api/auth/change-password', {
      cookie: here,
      json: { currentPassword: 'nao-e-esta', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    });
    expect(wrong.status).toBe(400);
    expect(json(wrong).message).toBe(settingsMsg.currentPasswordWrong);
    for (const c of elsewhere) expect((await me(c)).status).toBe(200);

    const changed = await call('POST', '/api/auth/change-password', {
      cookie: here,
      json: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    });
    expect(changed.status, changed.body).toBe(200);
    for (const c of elsewhere) {
      expect((await me(c)).status).toBe(401);
      expect((await call('GET', '/api/contacts', { cookie: c })).status).toBe(401);
    }
    expect((await me(here)).status).toBe(200);
    expect((await me(bystander)).status).toBe(200);
    expect((await login(user.username, TEST_PASSWORD)).answer.status).toBe(401);
    expect((await login(user.username, NEW_PASSWORD)).answer.status).toBe(200);
  });

  it('ends the administrator’s sessions when a restart sets a new ADMIN_PASSWORD', async () => {
    const log = { info: () => undefined, warn: () => undefined };
    const username = `admin_${Date.now().toString(36)}`;
    await ensureAdmin(ctx.database.db, { username, password: 'senha-admin-antiga-1' }, log);
    const cookie = await signedIn(username, 'senha-admin-antiga-1');
    expect((await call('GET', '/api/admin/users', { cookie })).status).toBe(200);

    // The next start with another ADMIN_PASSWORD (a restart starts with an empty session cache).
    await ensureAdmin(ctx.database.db, { username, password: 'senha-admin-nova-2' }, log);
    ctx.app.deps.sessions.clearCache();
    expect((await call('GET', '/api/admin/users', { cookie })).status).toBe(401);
    expect((await login(username, 'senha-admin-antiga-1')).answer.status).toBe(401);
    const fresh = await signedIn(username, 'senha-admin-nova-2');

    // The same password again changes nothing.
    await ensureAdmin(ctx.database.db, { username, password: 'senha-admin-nova-2' }, log);
    ctx.app.deps.sessions.clearCache();
    expect((await call('GET', '/api/admin/users', { cookie: fresh })).status).toBe(200);
  });
});

/** A login sent from a given loopback address (all of 127.0.0.0/8 is this machine), over a real socket. */
function loginFrom(
  to: number,
  localAddress: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; message: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: to,
        method: 'POST',
        path: '/api/auth/login',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, message: JSON.parse(text).message }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The failures counted for one login from one client address in the last 15 minutes (0 when none). */
async function failuresOf(ip: string, loginKey: string): Promise<number> {
  const [row] = await ctx.database.db
    .select()
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), eq(loginFailures.loginKey, loginKey)));
  return row?.failures ?? 0;
}

describe('(b) login throttling', () => {
  it('limits logins per IP with a pt-BR 429, a right password included, and a forged X-Forwarded-For changes nothing', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const to = await listen(limited);
      const user = await createUser(limited);
      const wrong = { username: user.username, password: 'errada-123' };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await loginFrom(to, '127.0.0.1', wrong)).status);
      expect(statuses).toEqual([401, 401, 401]);
      for (const [body, headers] of [
        [wrong, {}],
        [{ username: user.username, password: TEST_PASSWORD }, {}],
        [wrong, { 'x-forwarded-for': '203.0.113.9' }],
      ] as const) {
        const answer = await loginFrom(to, '127.0.0.1', body, headers);
        expect(answer.status).toBe(429);
        expect(answer.message).toBe(msg.auth.rateLimited);
      }
      // Another address has its own count.
      expect((await loginFrom(to, '127.0.0.2', { username: user.username, password: TEST_PASSWORD })).status).toBe(200);
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('counts the client address a trusted proxy reports', async () => {
    const proxied = await createTestApp({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    try {
      const to = await listen(proxied);
      const wrong = { username: 'ninguem_aqui', password: 'errada-123' };
      const from = (ip: string) => loginFrom(to, '127.0.0.1', wrong, { 'x-forwarded-for': ip });
      expect((await from('198.51.100.1')).status).toBe(401);
      expect((await from('198.51.100.1')).status).toBe(401);
      expect((await from('198.51.100.1')).status).toBe(429);
      expect((await from('198.51.100.2')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  }, 60_000);

  it('slows a login from one address after three failures, counting every failure even when sent at once', async () => {
    const user = await createUser(ctx);
    const bystander = await createUser(ctx);
    const failures = (u = user, ip = '127.0.0.1') => failuresOf(ip, `user:${u.id}`);
    for (let i = 0; i < 3; i++) {
      const answer = await login(user.username, 'errada-123');
      expect(answer.answer.status).toBe(401);
      expect(json(answer.answer).message).toBe(msg.auth.loginFailed);
    }
    expect(await failures()).toBe(3);

    // The fourth attempt waits (a lower bound: the delay is the product's, not the machine's speed).
    const started = performance.now();
    expect((await login(user.username, 'errada-123')).answer.status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(await failures()).toBe(4);

    // A burst in parallel: each failure counts, so the next delay grows by all of them.
    const burst = await Promise.all(Array.from({ length: 6 }, () => login(user.username, 'errada-123')));
    expect(burst.map((b) => b.answer.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(await failures()).toBe(10);

    // Other accounts are not slowed; a success resets the count.
    const quick = performance.now();
    expect((await login(bystander.username, TEST_PASSWORD)).answer.status).toBe(200);
    expect(performance.now() - quick).toBeLessThan(900);
    expect(await failures(bystander)).toBe(0);
    await ctx.database.db
      .update(loginFailures)
      .set({ failures: 3 })
      .where(and(eq(loginFailures.ip, '127.0.0.1'), eq(loginFailures.loginKey, `user:${user.id}`)));
    expect((await login(user.username, TEST_PASSWORD)).answer.status).toBe(200);
    expect(await failures()).toBe(0);
  }, 60_000);

  it('answers an unknown username as slowly as a known one, failure for failure, so timing tells no username', async () => {
    const known = await createUser(ctx);
    const unknown = `ninguem_${Date.now().toString(36)}`;
    const timed = async (username: string) => {
      const started = performance.now();
      const { answer } = await login(username, 'errada-123');
      expect(answer.status).toBe(401);
      expect(json(answer).message).toBe(msg.auth.loginFailed);
      return performance.now() - started;
    };
    // The first three cost one password check each, known or not.
    for (let i = 0; i < 3; i++) {
      const [k, u] = [await timed(known.username), await timed(unknown)];
      expect(k, `known, failure ${i + 1}`).toBeLessThan(900);
      expect(u, `unknown, failure ${i + 1}`).toBeLessThan(900);
    }
    // The fourth waits a second either way (bounds generous for a busy machine).
    const [k4, u4] = [await timed(known.username), await timed(unknown)];
    expect(k4).toBeGreaterThanOrEqual(950);
    expect(u4).toBeGreaterThanOrEqual(950);
    expect(k4).toBeLessThan(1900);
    expect(u4).toBeLessThan(1900);
    expect(await failuresOf('127.0.0.1', `name:${unknown}`)).toBe(4);
  }, 60_000);

  it('does not slow the owner signing in from another address while an attacker’s attempts are held back', async () => {
    const user = await createUser(ctx);
    const wrong = { username: user.username, password: 'errada-123' };
    // Six failures from the attacker's address, sent at once: all counted.
    const burst = await Promise.all(Array.from({ length: 6 }, () => loginFrom(port, '127.0.0.2', wrong)));
    expect(burst.map((b) => b.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(await failuresOf('127.0.0.2', `user:${user.id}`)).toBe(6);

    // The attacker's next attempt waits its 8 s; meanwhile the owner signs in from elsewhere at once.
    const attackStarted = performance.now();
    const attack = loginFrom(port, '127.0.0.2', wrong);
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    const owner = await loginFrom(port, '127.0.0.1', { username: user.username, password: TEST_PASSWORD });
    expect(owner.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await attack).status).toBe(401);
    expect(performance.now() - attackStarted).toBeGreaterThanOrEqual(7500);
    // The owner's success does not clear the attacker's count.
    expect(await failuresOf('127.0.0.2', `user:${user.id}`)).toBe(7);
  }, 60_000);
});

describe('(b) registration', () => {
  it('refuses a taken username whatever the e-mail; answers a taken e-mail as a free one', async () => {
    const username = `cadastro_${Date.now().toString(36)}`;
    const fields = (over: Record<string, string>) => ({
      name: 'Cliente Cadastro',
      email: `${username}@example.com`,
      username,
      password: REGISTERED_PASSWORD,
      whatsappNumber: '(11) 98765-4321',
      ...over,
    });
    const first = await call('POST', '/api/auth/register', { json: fields({}) });
    expect(first.status, first.body).toBe(201);
    const sameUsername = await call('POST', '/api/auth/register', {
      json: fields({ email: `outro_${username}@example.com`, username: username.toUpperCase() }),
    });
    const sameBoth = await call('POST', '/api/auth/register', { json: fields({ username: username.toUpperCase() }) });
    const sameEmail = await call('POST', '/api/auth/register', {
      json: fields({ email: `${username.toUpperCase()}@EXAMPLE.COM`, username: `outro_${username}` }),
    });
    const fresh = await call('POST', '/api/auth/register', {
      json: fields({ email: `novo_${username}@example.com`, username: `novo_${username}` }),
    });
    expect(sameUsername.status).toBe(409);
    expect(json(sameUsername)).toMatchObject({ success: false, message: msg.auth.usernameTaken });
    expect(sameBoth.body).toBe(sameUsername.body);
    expect(sameEmail.status).toBe(fresh.status);
    expect(sameEmail.body).toBe(fresh.body);
    // The taken e-mail created nothing.
    const rows = await ctx.database.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) in (${username}, ${`outro_${username}`}, ${`novo_${username}`})`);
    expect(rows.map((r) => r.username).sort()).toEqual([username, `novo_${username}`]);
  });
});

describe('(a) the log', () => {
  it('of everything above, at trace level, holds no secret', async () => {
    const text = logLines.join('');
    // The log did record those requests.
    expect(text).toContain('/api/auth/login');
    expect(text).toContain('/api/whatsapp-business/configure');
    expect(text).toContain('/api/auth/change-password');
    expect(text).toContain('/api/whatsapp-business/webhook/');
    const stored = rowsOf<{ password_hash: string }>(
      await ctx.database.db.execute(sql`select password_hash from users`),
    );
    const sessionTokens = answers.flatMap((a) => {
      const c = sessionCookieOf(a);
      return c?.value ? [c.value] : [];
    });
    const [waba] = await ctx.database.db.select().from(whatsappBusinessAccounts);
    for (const secret of [
      ...CONFIGURED_SECRETS,
      'errada-123',
      'senha-admin-antiga-1',
      'senha-admin-nova-2',
      '$argon2',
      waba.accessToken,
      ...stored.map((r) => r.password_hash),
      ...sessionTokens,
    ]) {
      expect(text.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});
