import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { teamMsg } from '../contract/team';
import { RECOVERY_CODE_COUNT, twoFactorMsg } from '../contract/two-factor';
import { test as base, createActiveCustomer, expect, joinAsMember, login, shot, sql } from './fixtures';

/**
 * The fixtures' console check, where the wrong codes these tests type on purpose answer 400 too (the
 * message under the field): every other console error still fails the test.
 */
const test = base.extend<{ consoleErrors: string[] }>({
  // An override keeps the fixture's { auto: true }.
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const text = m.text();
      if (/status of (400|401|403|409|429)/.test(text)) return;
      errors.push(text);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await use(errors);
    expect(errors, 'console errors').toEqual([]);
  },
});

const codeAt = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });

/** Waits out the last seconds of a 30-second step, so "this step" stays the same while the test reads its codes. */
async function awayFromStepEdge(page: Page, margin = 8000) {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < margin) await page.waitForTimeout(left + 100);
}

/**
 * In the open two-factor card: 'Ativar', the QR code and the key, a first code (of the step before,
 * so this step's code is still unused for the next sign-in), then the ten recovery codes. Answers the key.
 */
async function turnOnInCard(page: Page, screenshot?: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const card = page.getByTestId('two-factor-card');
  await expect(card.getByTestId('two-factor-status')).toHaveText(twoFactorMsg.disabledBadge);
  await card.getByRole('button', { name: twoFactorMsg.setup }).click();
  await expect(card.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible();
  const qr = await card.getByTestId('two-factor-qr').getAttribute('data-qr');
  const secret = ((await card.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(qr).toContain(`secret=${secret}`);
  if (screenshot) {
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot(shot(screenshot));
    await expectNoSideScroll(page, screenshot);
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  // A wrong code: the message under the field.
  await card.getByLabel(twoFactorMsg.codeLabel).fill('000000');
  await card.getByRole('button', { name: twoFactorMsg.enable }).click();
  await expect(card.getByText(twoFactorMsg.invalidCode)).toBeVisible();

  await awayFromStepEdge(page);
  await card.getByLabel(twoFactorMsg.codeLabel).fill(codeAt(secret, Date.now() - 30_000));
  await card.getByRole('button', { name: twoFactorMsg.enable }).click();
  const list = card.getByTestId('recovery-codes');
  await expect(list.getByRole('listitem')).toHaveCount(RECOVERY_CODE_COUNT);
  await expect(card.getByText(twoFactorMsg.recoveryTitle, { exact: true })).toBeVisible();
  await expect(card.getByText(twoFactorMsg.recoveryHint)).toBeVisible();
  await expect(card.getByTestId('two-factor-status')).toHaveText(twoFactorMsg.enabledBadge);
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  return { secret, recoveryCodes };
}

async function expectNoSideScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what}: page width ${scrollWidth} > ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

async function logout(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await page.waitForURL('**/login');
}

/** The password step of a sign-in with two-factor on: the same card then asks for the code. */
async function passwordStep(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Usuário ou e-mail').fill(username);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByText(twoFactorMsg.loginHint)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

async function codeStep(page: Page, code: string) {
  await page.getByLabel(twoFactorMsg.codeLabel).fill(code);
  await page.getByRole('button', { name: twoFactorMsg.loginSubmit }).click();
}

test('a customer turns two-factor sign-in on in Configurações, then signs in with a code, and once with a recovery code', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await createActiveCustomer(page, { prefix: 'dois', name: 'Duda Dupla', plan: 'professional' });
  await login(page, customer.username, customer.password);

  // Equipe: the owner cannot require it of the team before having it.
  await page.goto('/equipe');
  const requireSwitch = page.getByRole('switch', { name: twoFactorMsg.requireLabel });
  await expect(requireSwitch).not.toBeChecked();
  await expect(page.getByText(twoFactorMsg.requireHint)).toBeVisible();
  await requireSwitch.click();
  await expect(page.getByText(twoFactorMsg.ownerNeedsItFirst).first()).toBeVisible();
  await expect(requireSwitch).not.toBeChecked();
  await expect(page.getByTestId('member-two-factor')).toHaveCount(0);

  await page.goto('/settings?tab=seguranca');
  await expect(page.getByTestId('two-factor-card').getByText(twoFactorMsg.description)).toBeVisible();
  const { secret, recoveryCodes } = await turnOnInCard(page, 'two-factor-setup-390');
  expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
  await page.getByRole('button', { name: 'Copiar códigos' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(recoveryCodes[0]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot(shot('two-factor-recovery-390'));
  await expectNoSideScroll(page, 'recovery codes');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole('button', { name: 'Guardei os códigos' }).click();
  await expect(page.getByRole('button', { name: twoFactorMsg.disable })).toBeVisible();

  // Equipe: the 2FA badge in the owner's row, and now the team can be held to it (and let go).
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Equipe' }).click();
  await expect(page.getByTestId('team-member').getByTestId('member-two-factor')).toHaveText(/2FA/);
  await requireSwitch.click();
  await expect(page.getByText(twoFactorMsg.requireOn).first()).toBeVisible();
  await expect(requireSwitch).toBeChecked();
  await requireSwitch.click();
  await expect(page.getByText(twoFactorMsg.requireOff).first()).toBeVisible();
  await expect(requireSwitch).not.toBeChecked();

  // Signing in: the password, then this step's code (still unused: the setup spent the step before).
  await logout(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await passwordStep(page, customer.username, customer.password);
  await expect(page.getByLabel(twoFactorMsg.codeLabel)).toBeFocused();
  await page.screenshot(shot('two-factor-login-390'));
  await expectNoSideScroll(page, 'login code step');
  await page.setViewportSize({ width: 1366, height: 900 });
  await codeStep(page, codeAt(secret));
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();

  // A recovery code, spelled loosely, signs in once; the second time it is refused under the field.
  await logout(page);
  await passwordStep(page, customer.username, customer.password);
  await codeStep(page, recoveryCodes[3].replace('-', ' ').toLowerCase());
  await page.waitForURL('**/dashboard');
  await logout(page);
  await passwordStep(page, customer.username, customer.password);
  await codeStep(page, recoveryCodes[3]);
  await expect(page.locator('#login-code-error')).toHaveText(twoFactorMsg.invalidCode);
  await expect(page).toHaveURL(/\/login$/);

  // 'Voltar para a senha' goes back to the first step.
  await page.getByRole('button', { name: 'Voltar para a senha' }).click();
  await expect(page.getByLabel('Senha', { exact: true })).toBeVisible();
});

test('a login its account holds to two-factor sign-in sees only its setup, then the app', async ({ page }) => {
  test.setTimeout(90_000);
  const customer = await createActiveCustomer(page, { prefix: 'preso', name: 'Paulo Preso' });
  await sql('update users set require_two_factor = true where username = $1', [customer.username]);
  const calls: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403) calls.push(r.url());
  });
  await login(page, customer.username, customer.password);

  const held = page.getByTestId('two-factor-setup-required');
  await expect(held.getByText(twoFactorMsg.setupRequired)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toHaveCount(0);
  // Any other page shows the same.
  await page.goto('/contacts');
  await expect(held.getByText(twoFactorMsg.setupRequired)).toBeVisible();
  await turnOnInCard(page);
  await page.getByRole('button', { name: 'Guardei os códigos, continuar' }).click();
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
  await expect(held).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Contatos', level: 1 })).toBeVisible();
  expect(calls, 'calls answered 403 TWO_FACTOR_REQUIRED').toEqual([]);
});

test('an owner resets the two-factor sign-in of an agent who lost the phone: the agent’s session ends', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const owner = await createActiveCustomer(page, { prefix: 'perdeu', name: 'Olga Dona', plan: 'professional' });
  await login(page, owner.username, owner.password);
  const agent = await joinAsMember(browser, page, {
    name: 'Caio Celular',
    prefix: 'caio',
    role: 'agent',
    password: 'senha-do-caio-1',
  });
  await sql('update users set two_factor_at = now() where username = $1', [agent.username]);

  await page.goto('/equipe');
  const row = page.getByTestId('team-member').filter({ hasText: 'Caio Celular' });
  await expect(row.getByTestId('member-two-factor')).toBeVisible();
  // Only a row with a second factor offers the reset.
  await expect(page.getByRole('button', { name: /Redefinir 2FA/ })).toHaveCount(1);
  await row.getByRole('button', { name: `${teamMsg.resetTwoFactor} de Caio Celular` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText(teamMsg.resetTwoFactorTitle('Caio Celular'))).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot(shot('team-reset-two-factor-390'));
  await expectNoSideScroll(page, 'reset dialog');
  await page.setViewportSize({ width: 1366, height: 900 });
  await dialog.getByRole('button', { name: teamMsg.resetTwoFactor }).click();
  await expect(page.getByText(teamMsg.twoFactorReset('Caio Celular')).first()).toBeVisible();
  await expect(row.getByTestId('member-two-factor')).toHaveCount(0);
  await expect(row.getByRole('button', { name: /Redefinir 2FA/ })).toHaveCount(0);

  // The agent's open session is over: the next page they open is the sign-in.
  await agent.page.goto('/conversations');
  await agent.page.waitForURL('**/login');
  await agent.context.close();
});
