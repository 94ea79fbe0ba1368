import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  type CustomerOptions,
  createActiveCustomer,
  expect,
  login,
  shot,
  signInCustomer,
  sql,
  test,
  unique,
} from './fixtures';

async function expectNoSeriousA11yIssues(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

/** Paula, an approved customer on the Professional plan (the settings tests read these back). */
const paula = (prefix: string): CustomerOptions => ({
  prefix,
  name: 'Paula Souza',
  password: 'senha-inicial-1',
  plan: 'professional',
});

test('landing page: anchors, countdown, video, plans, contact and meta tags', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Campanhas de WhatsApp');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /WhatsApp/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Disparo/);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', '/og-image.jpg');

  // The countdown starts at 4:23:15 and goes down.
  const countdown = page.getByTestId('landing-countdown');
  await expect(countdown).toHaveText(/^4:23:1\d$/);
  const first = (await countdown.textContent()) ?? '';
  await expect(countdown).not.toHaveText(first, { timeout: 3_000 });
  expect(((await countdown.textContent()) ?? '') < first).toBe(true);

  // Every anchor of the top navigation scrolls to its section.
  const nav = page.getByRole('navigation', { name: 'Seções da página', exact: true });
  for (const [label, id] of [
    ['Preços', 'precos'],
    ['Recursos', 'recursos'],
    ['Como funciona', 'como-funciona'],
    ['Dashboard', 'dashboard'],
  ] as const) {
    await nav.getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
    await expect(page.locator(`#${id}`)).toBeInViewport();
  }
  await expect(page.getByText('Exemplo ilustrativo', { exact: false })).toBeVisible();

  // The video ships with the app and plays and pauses.
  await nav.getByRole('link', { name: 'Como funciona' }).click();
  const video = page.getByTestId('landing-video');
  await expect(video).toHaveAttribute('src', '/media/disparo-demo.webm');
  expect((await page.request.get('/media/disparo-demo.webm')).status()).toBe(200);
  await page.getByRole('button', { name: 'Reproduzir vídeo' }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true);
  await page.getByRole('button', { name: 'Pausar vídeo' }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);

  // Four plans with §9 prices; buying opens the configured payment link.
  const config = await (await page.request.get('/api/public-config')).json();
  const expected = [
    ['basic', 'Plano Básico', 'R$ 25,00', 'R$ 30,00', 'Até 5.000 contatos', '1 número de WhatsApp'],
    ['professional', 'Plano Profissional', 'R$ 60,00', 'R$ 90,00', 'Até 15.000 contatos', 'Até 3 números de WhatsApp'],
    ['enterprise', 'Plano Enterprise', 'R$ 100,00', 'R$ 180,00', 'Contatos ilimitados', 'Até 5 números de WhatsApp'],
    ['premium', 'Plano Premium', 'R$ 180,00', 'R$ 360,00', 'Contatos ilimitados', 'Até 10 números de WhatsApp'],
  ] as const;
  const pricing = page.locator('#precos');
  for (const [type, label, price, list, limit, numbers] of expected) {
    const card = pricing.getByTestId(`plan-${type}`);
    await expect(card.getByRole('heading', { name: label })).toBeVisible();
    await expect(card).toContainText(price);
    await expect(card.locator('s')).toHaveText(list);
    await expect(card).toContainText(limit);
    await expect(card).toContainText(numbers);
    await expect(card).toContainText('Garantia de 7 dias');
    const buy = card.getByRole('link', { name: /Assinar/ });
    await expect(buy).toHaveAttribute('href', config.paymentUrls[type]);
    await expect(buy).toHaveAttribute('target', '_blank');
  }

  // Contact information from the configuration, the e-mail masked.
  await expect(page.getByTestId('landing-support-email')).toHaveText(`E-mail: ${config.supportEmailMasked}`);
  expect(config.supportEmailMasked).toContain('****');
  await expect(page.getByRole('link', { name: /WhatsApp: \+55 11 97777-6666/ })).toHaveAttribute(
    'href',
    /^https:\/\/wa\.me\/5511977776666/,
  );
  // The signup form stays hidden until asked for.
  await expect(page.getByLabel('Nome', { exact: true })).toBeHidden();

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot(shot('landing-1366'));
  await expectNoSeriousA11yIssues(page);
});

test('landing signup: required fields, failure, then credentials popup and the move to /login', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Criar minha conta' }).first().click();
  const form = page.getByRole('form', { name: 'Criar conta' });
  await expect(form).toBeVisible();
  await expect(page.getByLabel('Nome', { exact: true })).toBeFocused();

  await form.getByRole('button', { name: 'Criar minha conta' }).click();
  await expect(page.getByText('Campos obrigatórios', { exact: true })).toBeVisible();
  await expect(page.getByText('Por favor, preencha todos os campos para continuar.', { exact: true })).toBeVisible();

  const email = `${unique('lead')}@example.com`;
  await page.getByLabel('Nome', { exact: true }).fill('Lucas Lima');
  await page.getByLabel('E-mail').fill(email);
  // The number follows the one rule of every form, told under its field.
  await page.getByRole('textbox', { name: 'WhatsApp' }).fill('1234');
  await form.getByRole('button', { name: 'Criar minha conta' }).click();
  await expect(form.getByText('Número deve ter pelo menos 10 dígitos', { exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'WhatsApp' }).fill('(31) 99876-5432');

  // The server is busy: the spec's failure toast.
  await page.route('**/api/auth/signup', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: '{"success":false,"code":"RATE_LIMITED","message":"x"}',
    }),
  );
  await form.getByRole('button', { name: 'Criar minha conta' }).click();
  await expect(page.getByText('Erro ao criar conta', { exact: true })).toBeVisible();
  await expect(page.getByText('Tente novamente em alguns minutos.', { exact: true })).toBeVisible();
  await page.unroute('**/api/auth/signup');

  const started = Date.now();
  await form.getByRole('button', { name: 'Criar minha conta' }).click();
  const popup = page.getByRole('dialog', { name: 'Conta criada!' });
  await expect(popup).toBeVisible();
  await expect(popup.getByTestId('credential-username')).toHaveText(/^lead\w+\d{6}$/);
  await expect(popup.getByTestId('credential-password')).toHaveText(/^\S{16}$/);
  await expect(page.getByText('Conta criada com sucesso!', { exact: true })).toBeVisible();
  await page.screenshot(shot('landing-signup-done-1366'));

  await page.waitForURL('**/login', { timeout: 25_000 });
  const waited = Date.now() - started;
  expect(waited).toBeGreaterThan(17_000);
  expect(waited).toBeLessThan(22_000);
  const [row] = (await sql('select account_type from users where email = $1', [email])).rows;
  expect(row.account_type).toBe('pending');
});

test('demo: validation, credentials once with copy, another one, then the demo dashboard', async ({ page }) => {
  // A real purchase, 12 minutes ago, for the purchase notice.
  await sql(
    `insert into plan_activations (plan_type, created_at) values ('professional', now() - interval '12 minutes')`,
  );

  await page.goto('/demo');
  await expect(page.getByText('Passo 1 de 2', { exact: true })).toBeVisible();
  await page.getByLabel('Nome').fill('A');
  await page.getByLabel('WhatsApp').fill('1199');
  await page.getByLabel('Email').fill('nao-email');
  await page.getByRole('button', { name: 'Começar demonstração' }).click();
  await expect(page.getByText('Nome deve ter pelo menos 2 caracteres', { exact: true })).toBeVisible();
  await expect(page.getByText('Número deve ter pelo menos 10 dígitos', { exact: true })).toBeVisible();
  await expect(page.getByText('Email inválido', { exact: true })).toBeVisible();
  await page.getByLabel('WhatsApp').fill('11 9999x-00000');
  await page.getByRole('button', { name: 'Começar demonstração' }).click();
  await expect(page.getByText('Formato de número inválido', { exact: true })).toBeVisible();
  await page.screenshot(shot('demo-validation-1366'));

  await page.getByLabel('Nome').fill('Diana Demo');
  await page.getByLabel('WhatsApp').fill('(11) 99999-1234');
  await page.getByLabel('Email').fill('diana.demo@example.com');
  await page.getByRole('button', { name: 'Começar demonstração' }).click();
  await expect(page.getByText('Passo 2 de 2', { exact: true })).toBeVisible();
  const firstUser = await page.getByTestId('credential-username').textContent();
  await page.getByRole('button', { name: 'Copiar usuário' }).click();
  await expect(page.getByText('Copiado!', { exact: true })).toBeVisible();
  await page.screenshot(shot('demo-credentials-1366'));

  await page.getByRole('button', { name: 'Criar outra conta demo' }).click();
  await expect(page.getByText('Passo 1 de 2', { exact: true })).toBeVisible();
  await page.getByLabel('Nome').fill('Diana Demo');
  await page.getByLabel('WhatsApp').fill('(11) 99999-1234');
  await page.getByLabel('Email').fill('diana.demo@example.com');
  await page.getByRole('button', { name: 'Começar demonstração' }).click();
  await expect(page.getByTestId('credential-username')).not.toHaveText(firstUser ?? '');

  await page.getByRole('button', { name: 'Entrar na demonstração' }).click();
  await page.waitForURL('**/dashboard');
  await expect(page.getByText('Bem-vindo ao Disparo Demo!', { exact: true })).toBeVisible();
  await expect(page.getByTestId('demo-countdown')).toHaveText(/Expira em 1h 5\dmin|Expira em 2h 0min/);
  await expect(page.getByRole('link', { name: /Ver planos/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Nova Campanha' }).first()).toHaveAttribute('aria-disabled', 'true');

  // The purchase notice: a real activation, no personal data, 3 s after the dashboard opens.
  await expect(
    page.getByText(/^Um cliente assinou o Plano (Básico|Profissional|Enterprise|Premium) (agora|\d+[mhd] atrás)$/),
  ).toBeVisible({
    timeout: 8_000,
  });
  await page.screenshot(shot('demo-purchase-notice-1366'));

  // Settings are read-only for a demo.
  await page.goto('/settings');
  await expect(page.getByRole('button', { name: 'Salvar alterações' })).toHaveAttribute('aria-disabled', 'true');
});

test('settings: profile, notifications and WhatsApp saved and read back after a reload; plans', async ({ page }) => {
  const customer = await signInCustomer(page, paula('paula'));
  await page.goto('/settings');

  // Perfil
  await expect(page.getByLabel('Nome')).toHaveValue('Paula Souza');
  await page.getByLabel('Nome').fill('Paula Souza Lima');
  await page.getByLabel('Telefone').fill('(21) 97654-3210');
  await page.getByLabel('Empresa').fill('Doces da Paula');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByText('Configurações salvas com sucesso.', { exact: true })).toBeVisible();
  await expect(page.getByTestId('header-user')).toContainText('Paula Souza Lima');
  await page.screenshot(shot('settings-profile-1366'));
  await expectNoSeriousA11yIssues(page);
  await page.reload();
  await expect(page.getByLabel('Empresa')).toHaveValue('Doces da Paula');
  await expect(page.getByLabel('Telefone')).toHaveValue('(21) 97654-3210');
  await expect(page.getByLabel('Nome')).toHaveValue('Paula Souza Lima');

  // Notificações: defaults, then a change that survives a reload.
  await page.getByRole('tab', { name: 'Notificações' }).click();
  const alerts = page.getByRole('switch', { name: 'Alertas do sistema' });
  const marketing = page.getByRole('switch', { name: 'Novidades e ofertas' });
  await expect(alerts).toHaveAttribute('aria-checked', 'false');
  await expect(marketing).toHaveAttribute('aria-checked', 'true');
  await alerts.click();
  await marketing.click();
  await page.getByRole('button', { name: 'Salvar preferências' }).click();
  await expect(page.getByText('Configurações salvas com sucesso.', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/tab=notificacoes/);
  await expect(alerts).toHaveAttribute('aria-checked', 'true');
  await expect(marketing).toHaveAttribute('aria-checked', 'false');

  // WhatsApp: §9 defaults, client-side limits, business hours shown only when respected.
  await page.getByRole('tab', { name: 'WhatsApp' }).click();
  const delay = page.getByLabel('Intervalo entre mensagens (segundos)');
  await expect(delay).toHaveValue('2');
  await expect(page.getByLabel('Limite diário de mensagens')).toHaveValue('1000');
  await expect(page.getByLabel('Início do expediente')).toHaveValue('09:00');
  await expect(page.getByLabel('Fim do expediente')).toHaveValue('18:00');
  // Which number sends is chosen in one place, the 'Números' page: here only a summary leading there.
  await expect(page.getByLabel('Canal de envio')).toHaveCount(0);
  await expect(page.getByTestId('settings-numbers-count')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Gerenciar números' })).toHaveAttribute('href', '/numeros');
  await page.screenshot(shot('settings-whatsapp-1366'));
  await delay.fill('61');
  await page.getByLabel('Limite diário de mensagens').fill('0');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(
    page.getByText('O intervalo entre mensagens deve ser de 1 a 60 segundos', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('O limite diário deve ser de pelo menos 1 mensagem', { exact: true })).toBeVisible();
  await delay.fill('7');
  await page.getByLabel('Limite diário de mensagens').fill('250');
  await page.getByLabel('Início do expediente').fill('08:00');
  await page.getByRole('switch', { name: 'Respeitar horário comercial' }).click();
  await expect(page.getByLabel('Início do expediente')).toBeHidden();
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByText('Configurações salvas com sucesso.', { exact: true })).toBeVisible();
  await page.reload();
  await expect(delay).toHaveValue('7');
  await expect(page.getByLabel('Limite diário de mensagens')).toHaveValue('250');
  await expect(page.getByRole('switch', { name: 'Respeitar horário comercial' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(page.getByLabel('Início do expediente')).toBeHidden();
  await page.getByRole('switch', { name: 'Respeitar horário comercial' }).click();
  await expect(page.getByLabel('Início do expediente')).toHaveValue('08:00');
  const [stored] = (
    await sql(
      `select s.business_start, s.business_days from account_settings s join users u on u.id = s.user_id where u.username = $1`,
      [customer.username],
    )
  ).rows;
  expect(stored.business_start).toBe('08:00');
  expect(stored.business_days).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);

  // Planos: the current plan marked, upgrades through the payment links.
  await page.getByRole('tab', { name: 'Planos' }).click();
  const config = await (await page.request.get('/api/public-config')).json();
  await expect(page.getByTestId('plan-professional')).toContainText('Plano atual');
  await expect(page.getByTestId('plan-professional')).toContainText('Trimestral');
  await expect(page.getByTestId('plan-premium')).toContainText('Anual');
  await expect(page.getByTestId('plan-premium')).toContainText('R$ 180,00');
  // How many numbers each plan has (contract/plans.ts CONNECTION_LIMITS, the limit Números enforces).
  await expect(page.getByTestId('plan-basic')).toContainText('1 número de WhatsApp');
  await expect(page.getByTestId('plan-professional')).toContainText('Até 3 números de WhatsApp');
  await expect(page.getByTestId('plan-premium')).toContainText('Até 10 números de WhatsApp');
  await expect(page.getByTestId('plan-professional').getByRole('link')).toHaveCount(0);
  await expect(page.getByTestId('plan-premium').getByRole('link', { name: /Fazer upgrade/ })).toHaveAttribute(
    'href',
    config.paymentUrls.premium,
  );
  await page.screenshot(shot('settings-plans-1366'));
});

test('password change keeps this session and signs the other ones out', async ({ page, browser }) => {
  const customer = await createActiveCustomer(page, paula('trocasenha'));
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await login(otherPage, customer.username, customer.password);
  await login(page, customer.username, customer.password);

  await page.goto('/settings?tab=seguranca');
  // (A wrong current password answers 400 with a field message: covered by the API tests.)
  await page.getByLabel('Senha atual').fill(customer.password);
  await page.getByLabel('Nova senha', { exact: true }).fill('nova-senha-2');
  await page.getByLabel('Confirmar nova senha').fill('nova-senha-3');
  await page.getByRole('button', { name: 'Alterar senha' }).click();
  await expect(page.getByText('As senhas não coincidem', { exact: true })).toBeVisible();
  await page.getByLabel('Confirmar nova senha').fill('nova-senha-2');
  await page.getByRole('button', { name: 'Alterar senha' }).click();
  await expect(
    page.getByText('Senha alterada com sucesso. As outras sessões foram encerradas.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByLabel('Senha atual')).toHaveValue('');
  await page.screenshot(shot('settings-security-1366'));

  // This browser stays signed in; the other one is sent to the login screen.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Segurança' })).toBeVisible();
  await otherPage.reload();
  await otherPage.waitForURL('**/login');
  await login(otherPage, customer.username, 'nova-senha-2');
  await other.close();
});

test('routing: logged out an unknown path is not found; signed in it is the dashboard', async ({ page }) => {
  await page.goto('/pagina-que-nao-existe');
  await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible();
  await page.getByRole('link', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Campanhas de WhatsApp');

  await signInCustomer(page, paula('rota'));
  for (const path of ['/', '/pagina-que-nao-existe']) {
    await page.goto(path);
    await expect(page.getByText('Mensagens Enviadas', { exact: true }).first()).toBeVisible();
  }
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('landing, demo and settings fit the screen', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('landing-countdown')).toBeVisible();
    const mobileNav = page.getByRole('navigation', { name: 'Seções da página (celular)' });
    await mobileNav.getByRole('link', { name: 'Preços' }).click();
    await expect(page.locator('#precos')).toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot(shot('landing-390'));

    await page.goto('/demo');
    await expect(page.getByText('Passo 1 de 2', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot(shot('demo-390'));

    await signInCustomer(page, paula('mobile'));
    await page.goto('/settings');
    await expect(page.getByLabel('Empresa')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot(shot('settings-profile-390'));
    await page.goto('/settings?tab=whatsapp');
    await expect(page.getByLabel('Intervalo entre mensagens (segundos)')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot(shot('settings-whatsapp-390'));
  });
});
