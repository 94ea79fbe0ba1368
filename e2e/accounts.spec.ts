import AxeBuilder from '@axe-core/playwright';
import { ADMIN, expect, login, postJson, shot, sql, test, unique } from './fixtures';

test('register → pending → admin approves → login → dashboard', async ({ page, browser }) => {
  // Two browsers, two accessibility scans and an approval e-mail: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const username = unique('maria');
  const email = `${username}@example.com`;
  const password = 'segredo123';

  await page.goto('/login');
  await page.getByRole('tab', { name: 'Criar Conta' }).click();
  await page.getByLabel('Nome completo').fill('Maria Silva');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Nome de usuário').fill(username);
  await page.getByLabel('Senha').fill(password);
  await page.getByLabel('WhatsApp').fill('(11) 98765-4321');
  await page.getByRole('button', { name: 'Criar Conta' }).click();

  await expect(page.getByText('Conta criada com sucesso!').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Conta Criada!' })).toBeVisible();
  const release = page.getByRole('link', { name: /Solicitar liberação pelo WhatsApp/ }).first();
  await expect(release).toHaveAttribute('href', /^https:\/\/wa\.me\/5511977776666\?text=.+/);
  expect(decodeURIComponent((await release.getAttribute('href')) ?? '')).toContain(email);
  await page.screenshot(shot('register-done-1366'));

  // The pending account can sign in and sees it is waiting: one 'Solicitar Aprovação', in the
  // notice, and the actions keep their names, disabled, saying what they wait for.
  await login(page, username, password);
  await expect(page.getByText('Aguardando Aprovação').first()).toBeVisible();
  const ask = page.getByRole('link', { name: 'Solicitar Aprovação' });
  await expect(ask).toHaveCount(1);
  await expect(ask).toHaveAttribute('href', /wa\.me/);
  await expect(page.getByText('Solicitar Aprovação', { exact: true })).toHaveCount(1);
  // What waits is said once, in the notice, not printed under each quick action.
  const printed = await page
    .getByText(/^Sua conta aguarda aprovação/)
    .evaluateAll((els) => els.filter((el) => !el.classList.contains('sr-only')).length);
  expect(printed).toBe(1);
  const newCampaign = page.getByRole('button', { name: 'Nova Campanha' }).first();
  await expect(newCampaign).toHaveAttribute('aria-disabled', 'true');
  await expect(newCampaign).toHaveAccessibleDescription(
    'Sua conta aguarda aprovação. Entre em contato com o suporte para liberação.',
  );
  await page.screenshot(shot('dashboard-pending-1366'));

  // The admin approves it.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await login(admin, ADMIN.username, ADMIN.password);
  await admin.goto('/admin/users');
  await admin.getByRole('tab', { name: /Pendentes/ }).click();
  const card = admin.getByRole('article').filter({ hasText: username });
  await card.getByRole('button', { name: 'Aprovar conta' }).click();
  await expect(card).toHaveCount(0);
  await admin.getByRole('tab', { name: /Ativos/ }).click();
  await expect(admin.getByRole('article').filter({ hasText: username })).toBeVisible();
  await admin.screenshot(shot('admin-users-1366'));
  const axe = await new AxeBuilder({ page: admin }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await adminContext.close();

  // Signed in again, the customer has the full dashboard.
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await page.waitForURL('**/login');
  await login(page, username, password);
  await expect(page.getByText('Aguardando Aprovação')).toHaveCount(0);
  await expect(page.getByText(/Olá, Maria|Bem-vind/).first()).toBeVisible();
  await expect(page.getByText('Mensagens Enviadas').first()).toBeVisible();
  // The upgrade card compares plans by their numbers too (contract/plans.ts CONNECTION_LIMITS).
  await expect(page.getByText(/Mais números de WhatsApp \(até 10 no Plano Premium\)/)).toBeVisible();
  await page.screenshot(shot('dashboard-active-1366'));
  const dashAxe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(dashAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
});

test('the login form shows the spec’s validation messages and the generic failure', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Usuário ou e-mail').fill('ab');
  await page.getByLabel('Senha', { exact: true }).fill('123');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByText('Nome de usuário deve ter pelo menos 3 caracteres')).toBeVisible();
  await expect(page.getByText('Senha deve ter pelo menos 6 caracteres')).toBeVisible();
  await page.screenshot(shot('login-validation-1366'));

  await page.getByLabel('Usuário ou e-mail').fill('ninguem');
  await page.getByLabel('Senha', { exact: true }).fill('errada123');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByText('Erro ao fazer login', { exact: true })).toBeVisible();
  await expect(page.getByText('Usuário ou senha inválidos.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('tab', { name: 'Criar Conta' }).click();
  await page.getByRole('button', { name: 'Criar Conta' }).click();
  await expect(page.getByText('Nome deve ter pelo menos 2 caracteres')).toBeVisible();
  await expect(page.getByText('Email inválido')).toBeVisible();
  await expect(page.getByText('Número do WhatsApp é obrigatório')).toBeVisible();
  // A short number is too short, not missing: the same message as the demo and landing forms.
  await page.getByLabel('WhatsApp').fill('1234');
  await page.getByRole('button', { name: 'Criar Conta' }).click();
  await expect(page.getByText('Número deve ter pelo menos 10 dígitos', { exact: true })).toBeVisible();
  await expect(page.getByText('Número do WhatsApp é obrigatório')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
});

test('an expired demo is signed out and told so on the login screen', async ({ page, request }) => {
  const res = await postJson(request, '/api/auth/demo-signup', {
    name: 'Ana Demo',
    whatsappNumber: '(11) 99999-0000',
    email: 'ana.demo@example.com',
  });
  expect(res.status()).toBe(201);
  const { credentials } = await res.json();

  await login(page, credentials.username, credentials.password);
  await expect(page.getByText('Bem-vindo ao Disparo Demo!')).toBeVisible();
  await expect(page.getByText(/Expira em \d+h \d+min/).first()).toBeVisible();
  await page.screenshot(shot('dashboard-demo-1366'));

  await sql(`update users set demo_expires_at = now() - interval '1 second' where username = $1`, [
    credentials.username,
  ]);
  // The next call of the running app (the 2-second poll, at the latest after the 5-second session cache) ends it.
  await page.waitForURL('**/login?expired=1', { timeout: 20_000 });
  await expect(page.getByText('Conta demo expirada!').first()).toBeVisible();

  await page.getByLabel('Usuário ou e-mail').fill(credentials.username);
  await page.getByLabel('Senha', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByText('Erro ao fazer login', { exact: true })).toBeVisible();
  await expect(page.getByText('Conta demo expirada!').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the drawer opens, navigates and closes; actions wait for a desktop', async ({ page, request }) => {
    const res = await postJson(request, '/api/auth/demo-signup', {
      name: 'Bia Mobile',
      whatsappNumber: '11999990000',
      email: 'bia.mobile@example.com',
    });
    const { credentials } = await res.json();
    await login(page, credentials.username, credentials.password);
    await page.screenshot(shot('dashboard-demo-390'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await page.screenshot(shot('drawer-390'));
    await expect(drawer.getByRole('link', { name: 'Usuários' })).toHaveCount(0);
    await drawer.getByRole('link', { name: 'Contatos' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole('heading', { name: 'Contatos' }).first()).toBeVisible();

    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('the login page fits the screen', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot(shot('login-390'));
  });
});

test('routing: unknown paths, the admin guard and JSON 404s for the API', async ({ page, request }) => {
  await page.goto('/nao-existe');
  await expect(page.getByRole('link', { name: /início|Voltar/i }).first()).toBeVisible();
  await page.screenshot(shot('not-found-1366'));

  const api = await request.get('/api/nao-existe');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });

  const res = await postJson(request, '/api/auth/demo-signup', {
    name: 'Caio Guard',
    whatsappNumber: '11999990000',
    email: 'caio.guard@example.com',
  });
  const { credentials } = await res.json();
  await login(page, credentials.username, credentials.password);
  // The guard answers with a client-side redirect, which may interrupt the navigation itself.
  await page.goto('/admin/users', { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/qualquer-coisa');
  await expect(page.getByText('Bem-vindo ao Disparo Demo!')).toBeVisible();
});
