import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  test as base,
  expect,
  type Page,
} from '@playwright/test';
import pg from 'pg';
import type { PlanType } from '../contract/plans';
import type { MemberRole } from '../contract/team';

/** Every test fails on a console error or an uncaught page error, except expected 401s of logged-out checks. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        const text = m.text();
        if (/status of (401|403|409|429)/.test(text)) return; // answers the tests provoke on purpose
        errors.push(text);
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const ADMIN = { username: 'admin', password: 'admin-e2e-senha' };

/** Direct access to the e2e database, for what a person would wait hours for (a demo expiring). */
export async function sql(query: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const { databaseUrl } = JSON.parse(readFileSync(new URL('./.state.json', import.meta.url), 'utf8'));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await client.query(query, params);
  } finally {
    await client.end();
  }
}

export async function login(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Usuário ou e-mail').fill(username);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/** Screenshot options for `page.screenshot(shot('name-1366'))`: the whole page, kept in e2e/screenshots/. */
export function shot(name: string): { path: string; fullPage: true } {
  return { path: `e2e/screenshots/${name}.png`, fullPage: true };
}

/**
 * A set-up write through Playwright's request API (the `request` fixture or `page.request`), sent as the
 * app sends it: with the page's Origin, without which the server refuses a cookie-carrying write (CSRF).
 */
export function postJson(request: APIRequestContext, path: string, data: unknown): Promise<APIResponse> {
  return request.post(path, { data, headers: appOrigin() });
}

/** As postJson, with PUT (settings, profile). */
export function putJson(request: APIRequestContext, path: string, data: unknown): Promise<APIResponse> {
  return request.put(path, { data, headers: appOrigin() });
}

function appOrigin(): { Origin: string } {
  const baseURL = test.info().project.use.baseURL;
  if (!baseURL) throw new Error('playwright.config.ts sets no baseURL');
  return { Origin: new URL(baseURL).origin };
}

/** Awaits a set-up request and fails the test, with the server's answer, unless it succeeded. */
export async function expectOk(res: Promise<APIResponse>, label: string): Promise<APIResponse> {
  const r = await res;
  expect(r.ok(), `${label}: ${r.status()} ${r.ok() ? '' : await r.text()}`).toBe(true);
  return r;
}

/**
 * An account ready to send: its contacts (numbers the simulator knows on WhatsApp: none ends in 0),
 * sending at any hour with a short pause, and its default number connected through the spec's
 * route. Answers the number, as the session poll shows it.
 */
export async function prepareSendingAccount(
  page: Page,
  contacts: Array<{ name: string; phone: string; tags?: string[] }>,
  messageDelay = 1,
): Promise<string> {
  for (const contact of contacts) {
    const res = await postJson(page.request, '/api/contacts', contact);
    expect(res.ok(), `contact ${contact.name}`).toBe(true);
  }
  const settings = await putJson(page.request, '/api/settings/whatsapp', {
    autoReconnect: true,
    messageDelay,
    dailyLimit: 1000,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
  });
  expect(settings.ok(), 'WhatsApp settings').toBe(true);
  expect((await postJson(page.request, '/api/whatsapp/connect', {})).ok(), 'WhatsApp connect').toBe(true);
  let phoneNumber = '';
  await expect
    .poll(
      async () => {
        phoneNumber = (await (await page.request.get('/api/whatsapp-session')).json()).phoneNumber ?? '';
        return phoneNumber;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return phoneNumber;
}

export interface Customer {
  username: string;
  password: string;
  email: string;
}

export interface CustomerOptions {
  /** Start of the generated username (see unique). */
  prefix: string;
  /** Full name. */
  name: string;
  /** 'segredo123' unless given. */
  password?: string;
  /** Also moves the account to this plan. */
  plan?: PlanType;
}

/**
 * An approved customer: registered through the API as a person would, then activated directly in the
 * database (what the admin's approval does), optionally on a given plan. Not signed in: see signInCustomer.
 */
export async function createActiveCustomer(
  page: Page,
  { prefix, name, password = 'segredo123', plan }: CustomerOptions,
): Promise<Customer> {
  const username = unique(prefix);
  const email = `${username}@example.com`;
  const res = await postJson(page.request, '/api/auth/register', {
    name,
    email,
    username,
    password,
    whatsappNumber: '(11) 98765-4321',
  });
  expect(res.status(), 'registration').toBe(201);
  await sql(
    `update users set account_type = 'active', is_active = true, plan_type = coalesce($2, plan_type) where username = $1`,
    [username, plan ?? null],
  );
  return { username, password, email };
}

/** An approved customer (createActiveCustomer), signed in on `page`. */
export async function signInCustomer(page: Page, opts: CustomerOptions): Promise<Customer> {
  const customer = await createActiveCustomer(page, opts);
  await login(page, customer.username, customer.password);
  return customer;
}

/** An e-mail the SMTP server of e2e/server.mjs received (each written as JSON in `mailDir`). */
export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** The e-mails to `address` whose subject starts with `subject`, oldest first. */
export function mailsTo(address: string, subject: string): Mail[] {
  const { mailDir } = JSON.parse(readFileSync(new URL('./.state.json', import.meta.url), 'utf8')) as {
    mailDir: string;
  };
  return readdirSync(mailDir)
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((f) => JSON.parse(readFileSync(join(mailDir, f), 'utf8')) as Mail)
    .filter((m) => m.to.includes(address) && m.subject.startsWith(subject));
}

/** The first such e-mail, waited for. */
export async function mailTo(address: string, subject: string): Promise<Mail> {
  await expect.poll(() => mailsTo(address, subject).length, { timeout: 10_000 }).toBeGreaterThan(0);
  return mailsTo(address, subject)[0];
}

/** The smallest PDF a reader opens: one empty page. */
export const TINY_PDF = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >> endobj',
  'trailer << /Root 1 0 R >>',
  '%%EOF',
  '',
].join('\n');

/** A member who joined through the owner's invitation, signed in in a browser context of their own. */
export interface JoinedMember {
  page: Page;
  context: BrowserContext;
  username: string;
  /** The member page's console and page errors (the login page's 401 check aside). */
  errors: string[];
}

/**
 * Invites `name` as `role` from the owner's `page` (POST /api/team/invitations), accepts the link's
 * token with a fresh username and `password`, and signs the member in in a new context.
 */
export async function joinAsMember(
  browser: Browser,
  owner: Page,
  opts: { name: string; prefix: string; role: MemberRole; password: string },
): Promise<JoinedMember> {
  const invited = await (
    await expectOk(
      postJson(owner.request, '/api/team/invitations', {
        name: opts.name,
        email: `${unique(opts.prefix)}@example.com`,
        role: opts.role,
      }),
      'invitation',
    )
  ).json();
  const token = new URL(invited.inviteUrl).searchParams.get('token');
  const username = unique(`${opts.prefix}.`);
  await expectOk(
    postJson(owner.request, '/api/auth/accept-invitation', { token, username, password: opts.password }),
    'acceptance',
  );
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: 'pt-BR' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    // The login page's session check answers 401 while signed out.
    if (m.type() === 'error' && !/status of 401/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await login(page, username, opts.password);
  return { page, context, username, errors };
}
