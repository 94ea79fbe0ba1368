import { readFileSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import pg from 'pg';

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
  await page.getByLabel('Nome de usuário').fill(username);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}
