import { expect, login, mailsTo, mailTo, shot, test, unique } from './fixtures';

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

test('a signed-in account that has not confirmed its e-mail asks for the link again', async ({ page }) => {
  const username = unique('reenvio');
  const email = `${username}@example.com`;
  await page.goto('/login?tab=register');
  await page.getByLabel('Nome completo').fill('Rui Reenvio');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Nome de usuário').fill(username);
  await page.getByLabel('WhatsApp').fill('(11) 98765-4321');
  await page.getByLabel('Senha', { exact: true }).fill('segredo123');
  await page.getByRole('button', { name: 'Criar Conta' }).click();
  await mailTo(email, 'Confirme seu email');

  await login(page, username, 'segredo123');
  const notice = page.getByRole('region', { name: 'Aguardando Aprovação' });
  await expect(notice.getByText(`Confirme seu email: enviamos um link de confirmação para ${email}.`)).toBeVisible();
  await notice.getByRole('button', { name: 'Reenviar e-mail de confirmação' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Email reenviado' })).toBeVisible();
  await expect.poll(() => mailsTo(email, 'Confirme seu email').length, { timeout: 10_000 }).toBe(2);
  await page.screenshot(shot('email-confirmation-resend-1366'));
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(notice.getByRole('button', { name: 'Reenviar e-mail de confirmação' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot(shot('email-confirmation-resend-390'));

  // The newest link confirms; the reminder is gone on the next visit.
  const mails = mailsTo(email, 'Confirme seu email');
  const path = /https?:\/\/[^/\s]+(\/confirmar-email\?token=[\w-]+)/.exec(mails[1].text)?.[1];
  await page.goto(path as string);
  await expect(page.getByRole('heading', { name: 'Email confirmado' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Aguardando Aprovação' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reenviar e-mail de confirmação' })).toHaveCount(0);
});
