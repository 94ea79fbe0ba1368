import { expect, mailTo, shot, test, unique } from './fixtures';

/**
 * 'Confirme seu email e entre em contato para liberação', as the registration toast says: the
 * e-mail arrives, its link opens a page that confirms the address once, and the administrator
 * sees it on the pending account.
 */
test('a new account confirms its e-mail through the link the registration sent', async ({ page, consoleErrors }) => {
  const username = unique('confirma');
  const email = `${username}@example.com`;
  await page.goto('/login?tab=register');
  await page.getByLabel('Nome completo').fill('Cora Confirma');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Nome de usuário').fill(username);
  await page.getByLabel('WhatsApp').fill('(11) 98765-4321');
  await page.getByLabel('Senha', { exact: true }).fill('segredo123');
  await page.getByRole('button', { name: 'Criar Conta' }).click();
  await expect(page.getByText('Confirme seu email e entre em contato para liberação.').first()).toBeVisible();

  const mail = await mailTo(email, 'Confirme seu email');
  expect(mail.text).toContain('Olá, Cora Confirma,');
  const path = /https?:\/\/[^/\s]+(\/confirmar-email\?token=[\w-]+)/.exec(mail.text)?.[1];
  expect(path, mail.text).toBeTruthy();

  await page.goto(path as string);
  await expect(page.getByRole('heading', { name: 'Email confirmado' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Email confirmado!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir para o login' })).toBeVisible();
  await page.screenshot(shot('email-confirmed-1366'));

  // The same link again: refused, with the way back to the login.
  await page.goto(path as string);
  await expect(page.getByRole('heading', { name: 'Não foi possível confirmar o email' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'inválido, expirou ou já foi usado' })).toBeVisible();
  const expected = consoleErrors.findIndex((e) => /status of 400/.test(e));
  expect(expected).toBeGreaterThanOrEqual(0);
  consoleErrors.splice(expected, 1);
});
