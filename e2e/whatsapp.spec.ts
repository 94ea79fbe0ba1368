import AxeBuilder from '@axe-core/playwright';
import { expect, login, postJson, shot, signInCustomer, test, unique } from './fixtures';

const customer = { prefix: 'whats', name: 'Loja Teste' };

test('connect a number by QR code through the simulator, watch the three states, disconnect', async ({ page }) => {
  await signInCustomer(page, customer);

  const card = page.locator('#whatsapp-connection');
  const status = card.getByTestId('whatsapp-status');
  await expect(status).toContainText('Offline');
  await expect(status).toContainText('Abra o WhatsApp Web para conectar');

  // The quick action opens the pairing dialog, which shows the QR code drawn in the browser.
  await page.getByRole('button', { name: 'Conectar WhatsApp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conectar WhatsApp' });
  const qr = dialog.getByTestId('whatsapp-qr');
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('data-qr')).toMatch(/^SIMULADOR@/);
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await page.screenshot(shot('whatsapp-qr-1366'));
  const dialogAxe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(dialogAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // The simulated phone "scans" it: connected without a number first, then online.
  await expect(status).toContainText('Detectando número...', { timeout: 10_000 });
  await expect(status).toContainText('Conectado - Aguardando número...');
  // Only a disconnect button (the card sits behind the modal dialog, hidden from the accessibility tree).
  await expect(card.getByRole('button', { includeHidden: true })).toHaveText(['Desconectar']);
  await expect(dialog).toContainText('WhatsApp conectado!');
  await expect(dialog).toContainText('Detectando número...');

  await expect(status).toContainText('Online', { timeout: 10_000 });
  await expect(status).toContainText('Pronto para enviar mensagens');
  await expect(status).toContainText(/\+55 11 9\d{4}-\d{4}/);
  // The dashboard's quick action now shows the number and 'Desconectar' instead of 'Conectar WhatsApp'.
  const quick = page.getByTestId('whatsapp-quick-action');
  await expect(quick).toContainText(/\+55 11 9\d{4}-\d{4}/);
  await expect(page.getByRole('button', { name: 'Conectar WhatsApp', includeHidden: true })).toHaveCount(0);
  await page.screenshot(shot('whatsapp-dialog-connected-1366'));
  await dialog.getByRole('button', { name: 'Concluir' }).click();
  await expect(dialog).toHaveCount(0);
  await page.screenshot(shot('whatsapp-online-1366'));

  // Disconnect (here from the quick action: the same button and confirmation as the card's) asks for
  // confirmation; on success the card is back to Offline and the quick action to 'Conectar WhatsApp'.
  await quick.getByRole('button', { name: 'Desconectar' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Desconectar WhatsApp?' });
  await confirm.getByRole('button', { name: 'Desconectar' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(status).toContainText('Offline');
  await expect(card.getByRole('button', { name: 'Conectar agora' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Conectar WhatsApp' })).toBeVisible();
  await expect(quick).toHaveCount(0);
});

test('pairing by phone-number code instead of the QR, on a phone-sized screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInCustomer(page, customer);
  await page.locator('#whatsapp-connection').getByRole('button', { name: 'Conectar agora' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conectar WhatsApp' });
  await dialog.getByRole('button', { name: 'Conectar com número de telefone' }).click();
  await dialog.getByLabel('Número do WhatsApp (com DDI e DDD)').fill('5511987654321');
  await dialog.getByRole('button', { name: 'Gerar código de pareamento' }).click();
  await expect(dialog.getByTestId('pairing-code')).toHaveText(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await page.screenshot(shot('whatsapp-pairing-code-390'));
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expect(dialog).toContainText('WhatsApp conectado!', { timeout: 10_000 });
});

test('Business API panel: validation, configuration against the Graph API, status, profile and webhook', async ({
  page,
}) => {
  await signInCustomer(page, customer);
  await page.getByRole('tab', { name: 'API WhatsApp' }).click();

  const status = page.getByTestId('business-status');
  await expect(status).toContainText('API Não Configurada');
  await expect(status).toContainText('Configure suas credenciais abaixo');
  await expect(page.getByRole('link', { name: 'Abrir Meta for Developers' })).toHaveAttribute(
    'href',
    'https://developers.facebook.com/apps',
  );

  // One place for numbers: the tab says so and leads to 'Números'.
  const numbers = page.getByTestId('business-numbers');
  await expect(numbers).toContainText('O número que você configurar aqui aparece também em Números.');
  await expect(numbers.getByRole('link', { name: 'Gerenciar números' })).toHaveAttribute('href', '/numeros');

  await page.getByRole('button', { name: 'Salvar Configuração' }).click();
  await expect(page.getByText('Access Token é obrigatório')).toBeVisible();
  await expect(page.getByText('Phone Number ID é obrigatório')).toBeVisible();

  // Wrong token: the Graph API refuses it and nothing is saved.
  await page.getByLabel('Access Token *').fill('token-errado');
  await page.getByLabel('Phone Number ID *').fill('109000000000001');
  await page.getByRole('button', { name: 'Salvar Configuração' }).click();
  await expect(page.getByText('Erro ao configurar API', { exact: true }).first()).toBeVisible();
  await expect(status).toContainText('API Não Configurada');

  await page.getByLabel('Access Token *').fill('EAAG-e2e-token');
  await page.getByRole('button', { name: 'Salvar Configuração' }).click();
  await expect(page.getByText('API do WhatsApp Business configurada com sucesso!').first()).toBeVisible();
  await expect(status).toContainText('API Conectada');
  await expect(status).toContainText('Sistema funcionando normalmente');
  // The number configured here is the account's Cloud number on 'Números' too, named in the tab.
  await expect(numbers).toContainText('Este painel mostra o número API oficial.');
  await expect(numbers.getByRole('listitem')).toHaveCount(1);
  await expect(numbers.getByRole('listitem')).toContainText('+55 11 3000-9999');
  const profile = page.getByTestId('business-profile');
  await expect(profile).toContainText('Loja E2E');
  await expect(profile).toContainText('+55 11 3000-9999');
  await expect(profile.getByLabel('Verificado')).toBeVisible();

  await expect(page.getByTestId('webhook-url')).toHaveText(/\/api\/whatsapp-business\/webhook\/[0-9a-f]{32}$/);
  await expect(page.getByTestId('webhook-verify-token')).not.toBeEmpty();
  await expect(page.getByTestId('webhook-needs-secret')).toBeVisible();
  await page.getByRole('button', { name: 'Verificar' }).click();
  // 'Verificar' says what it found: a toast with the number and its name, and the same facts inline.
  const found = page.locator('.toast-root').filter({ hasText: 'API Conectada' });
  await expect(found).toContainText('Número +55 11 3000-9999');
  await expect(found).toContainText('Loja E2E');
  await expect(found).toContainText('Qualidade alta');
  await expect(status).toContainText('API Conectada');
  const facts = page.getByTestId('business-health-facts');
  await expect(facts).toContainText('+55 11 3000-9999');
  await expect(facts).toContainText('Loja E2E');
  await expect(page.getByTestId('business-checked-at')).toContainText(
    /Última verificação: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/,
  );
  await page.screenshot(shot('business-api-1366'));
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot(shot('business-api-390'));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a demo account shows its connected simulated number and cannot connect or disconnect', async ({
  page,
  request,
}) => {
  const res = await postJson(request, '/api/auth/demo-signup', {
    name: 'Davi Demo',
    whatsappNumber: '(11) 99999-1111',
    email: `${unique('davi')}@example.com`,
  });
  expect(res.status()).toBe(201);
  const { credentials } = await res.json();
  await login(page, credentials.username, credentials.password);

  const card = page.locator('#whatsapp-connection');
  await expect(card.getByTestId('whatsapp-status')).toContainText('Online');
  await expect(card.getByTestId('whatsapp-status')).toContainText('+55 11 90000-0000');
  await expect(card.getByRole('button', { name: 'Desconectar' })).toBeDisabled();
  await expect(page.getByTestId('whatsapp-quick-action')).toContainText('+55 11 90000-0000');
  await expect(page.getByTestId('whatsapp-quick-action').getByRole('button', { name: 'Desconectar' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Conectar WhatsApp' })).toHaveCount(0);

  await page.getByRole('tab', { name: 'API WhatsApp' }).click();
  await expect(page.getByTestId('business-status')).toContainText('API Não Configurada');
  await expect(page.getByRole('button', { name: 'Salvar Configuração' })).toBeDisabled();
});
