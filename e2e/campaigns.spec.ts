import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, postJson, prepareSendingAccount, shot, signInCustomer, sql, test } from './fixtures';

const customer = { prefix: 'campanhas', name: 'Clara Campanhas' };

// Numbers ending in 0 have no WhatsApp in the simulator; these two get every message.
const CONTACTS = [
  { name: 'Ana Souza', phone: '(21) 99876-5431', email: 'ana@example.com', tags: ['vip'] },
  { name: 'Bruno Lima', phone: '(11) 91234-5677', tags: ['vip'] },
];

/** Contacts, sending at any hour with a short pause, and the simulated WhatsApp online. */
async function prepareAccount(page: Page) {
  await prepareSendingAccount(page, CONTACTS);
}

test('campaigns: create with a live preview, send, follow the progress, report and export', async ({ page }) => {
  // Real pacing: the messages go out a second or so apart and their receipts follow.
  test.setTimeout(90_000);
  await signInCustomer(page, customer);
  await prepareAccount(page);

  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { name: 'Campanhas', level: 2 })).toBeVisible();
  await expect(page.getByText('Nenhuma campanha criada ainda')).toBeVisible();

  // Name and message are required.
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Nome e mensagem são obrigatórios.').first()).toBeVisible();

  await dialog.getByLabel('Nome da campanha').fill('Promoção de Natal');
  const message = dialog.getByLabel('Mensagem', { exact: true });

  // An unknown variable is explained before anything is sent.
  await message.fill('Oi {{cidade}}');
  const preview = dialog.getByTestId('campaign-preview');
  await expect(preview).toContainText('Variável desconhecida na mensagem: {{cidade}}');

  // The preview shows the message as real contacts get it.
  await message.fill('{Olá|Oi} {{primeiro_nome}}, temos ofertas de Natal para você!');
  await expect(preview.getByTestId('campaign-preview-item').first()).toContainText(
    /(Olá|Oi) (Ana|Bruno), temos ofertas de Natal para você!/,
  );
  await expect(preview).toContainText(/Ana Souza|Bruno Lima/);

  await dialog.getByLabel('Público-alvo').selectOption({ label: 'Contatos' });
  await dialog.getByLabel('Tags (opcional)').fill('vip');
  await page.screenshot(shot('campaigns-dialog-1366'));
  const dialogAxe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(dialogAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('campaign-card').filter({ hasText: 'Promoção de Natal' });
  await expect(card.getByText('Rascunho')).toBeVisible();
  await expect(card).toContainText('Contatos com a tag vip');

  // Search on name or message, case-insensitively.
  const search = page.getByLabel('Buscar campanhas');
  await expect(search).toHaveAttribute('placeholder', 'Buscar campanhas...');
  await search.fill('OFERTAS DE NATAL');
  await expect(page.getByTestId('campaign-card')).toHaveCount(1);
  await search.fill('black friday');
  await expect(page.getByText('Nenhuma campanha encontrada')).toBeVisible();
  await search.fill('');

  // A test message to one number.
  await card.getByRole('button', { name: /Enviar teste/ }).click();
  const testDialog = page.getByRole('dialog', { name: 'Enviar teste' });
  await testDialog.getByLabel('Número para o teste').fill('(11) 91234-5678');
  await testDialog.getByRole('button', { name: 'Enviar teste' }).click();
  await expect(page.getByText('Mensagem de teste enviada para +55 11 91234-5678.').first()).toBeVisible();
  await expect(testDialog).toBeHidden();

  // Send, confirmed (e2e/campaign-pause.spec.ts covers the question): the card follows the campaign until it completes.
  await card.getByRole('button', { name: /Enviar Campanha/ }).click();
  await expect(page.getByRole('alertdialog')).toContainText('2 destinatários');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Campanha enviada com sucesso.').first()).toBeVisible();
  await expect(card.getByRole('button', { name: /Enviar Campanha/ })).toHaveCount(0);
  await expect(card.getByText('Concluída')).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('counter-sent')).toHaveText('2');
  // Receipts arrive shortly after the last message goes out.
  await expect(card.getByTestId('counter-read')).toHaveText('2', { timeout: 15_000 });
  await expect(card.getByTestId('counter-delivered')).toHaveText('2');
  await expect(card.getByTestId('delivery-rate')).toHaveText('100%');
  await page.screenshot(shot('campaigns-completed-1366'));

  // The report lists every recipient, filters by status and exports.
  await card.getByRole('button', { name: /Relatório/ }).click();
  const report = page.getByRole('dialog', { name: 'Relatório da campanha' });
  await expect(report.getByTestId('recipient-row')).toHaveCount(2);
  await expect(report).toContainText('Ana Souza');
  await expect(report).toContainText('Bruno Lima');
  await report.getByLabel('Filtrar por status').selectOption({ label: 'Falhou' });
  await expect(report.getByText('Nenhum destinatário com este status')).toBeVisible();
  await report.getByLabel('Filtrar por status').selectOption({ label: 'Todos' });
  await expect(report.getByTestId('recipient-row')).toHaveCount(2);
  await page.screenshot(shot('campaigns-report-1366'));

  const download = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Exportar CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const csv = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
  expect(csv).toContain('Ana Souza');
  expect(csv).toContain('Bruno Lima');
  await page.keyboard.press('Escape');
  await expect(report).toBeHidden();

  // Duplicate as a draft, edit the copy, then delete it with confirmation.
  await card.getByRole('button', { name: /Duplicar/ }).click();
  await expect(page.getByText('Campanha duplicada como rascunho.').first()).toBeVisible();
  const copy = page.getByTestId('campaign-card').filter({ hasText: 'Rascunho' });
  await expect(copy).toHaveCount(1);
  await copy.getByRole('button', { name: /Editar/ }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Campanha' });
  await expect(edit.getByLabel('Mensagem', { exact: true })).toHaveValue(
    '{Olá|Oi} {{primeiro_nome}}, temos ofertas de Natal para você!',
  );
  await edit.getByLabel('Nome da campanha').fill('Natal (segunda rodada)');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Campanha atualizada com sucesso.').first()).toBeVisible();
  const renamed = page.getByTestId('campaign-card').filter({ hasText: 'Natal (segunda rodada)' });
  await expect(renamed).toHaveCount(1);
  await expect(edit).toBeHidden();

  // Axe reads colours as painted: let the closing dialog and the toast finish their animations.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await renamed.getByRole('button', { name: /Excluir/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Tem certeza que deseja excluir esta campanha?');
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Campanha excluída com sucesso.').first()).toBeVisible();
  await expect(page.getByTestId('campaign-card')).toHaveCount(1);
});

test.describe('at 390 px', () => {
  // A page opened at phone size, as a phone opens it (resizing a page that has done everything above
  // once left headless Chromium without a frame to capture).
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a sent campaign’s card, its counters and its actions fit a phone', async ({ page }) => {
    test.setTimeout(60_000);
    await signInCustomer(page, { prefix: 'campmovel', name: 'Clara Movel' });
    await prepareAccount(page);
    const created = await postJson(page.request, '/api/campaigns', {
      name: 'Natal no celular',
      message: 'Oi {{primeiro_nome}}, temos ofertas de Natal para você!',
      targetType: 'all',
    });
    expect(created.ok(), 'campaign').toBe(true);
    const { id } = await created.json();
    expect((await postJson(page.request, `/api/campaigns/${id}/send`, {})).ok(), 'send').toBe(true);

    await page.goto('/campaigns');
    const card = page.getByTestId('campaign-card').filter({ hasText: 'Natal no celular' });
    await expect(card.getByText('Concluída')).toBeVisible({ timeout: 30_000 });
    await expect(card.getByTestId('counter-read')).toHaveText('2', { timeout: 15_000 });
    await expect(card.getByRole('button', { name: /Relatório/ })).toBeVisible();
    const box = await card.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot(shot('campaigns-390'));
  });
});

test('the header and the dashboard open the same new-campaign dialog without leaving the page', async ({ page }) => {
  await signInCustomer(page, customer);

  await page.goto('/contacts');
  await page.getByRole('banner').getByRole('button', { name: 'Nova Campanha' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/contacts$/);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();

  await page.goto('/dashboard');
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).click();
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await dialog.getByLabel('Nome da campanha').fill('Campanha do painel');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Olá {{nome}}!');
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  await expect(dialog).toBeHidden();
  // The dashboard's recent campaigns pick it up at once.
  await expect(page.getByText('Campanha do painel')).toBeVisible();
});

test('a message composed in HTML is saved, listed under the campaigns, and used as a campaign’s text', async ({
  page,
}) => {
  await signInCustomer(page, { prefix: 'compor', name: 'Carlos Compor' });
  await postJson(page.request, '/api/contacts', CONTACTS[0]);

  await page.goto('/dashboard');
  await page.getByRole('main').getByRole('button', { name: 'Mensagem', exact: true }).click();
  const compose = page.getByRole('dialog', { name: 'Compor Nova Mensagem' });
  await compose.getByRole('button', { name: 'Salvar Mensagem' }).click();
  await expect(compose.getByText('Título é obrigatório')).toBeVisible();
  await compose.getByLabel('Título').fill('Oferta da semana');
  await compose.getByLabel('Modo HTML').click();
  await compose
    .getByLabel('Conteúdo da mensagem')
    .fill('<b>Oferta</b> para {{primeiro_nome}}<img src=x onerror="window.__xss=1">');
  await compose.getByRole('button', { name: 'Salvar Mensagem' }).click();
  await expect(page.getByText('Mensagem salva com sucesso!').first()).toBeVisible();
  await expect(compose).toBeHidden();

  await page.goto('/campaigns');
  await expect(page.getByText('Mensagens salvas')).toBeVisible();
  await expect(page.getByText('Oferta da semana', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Excluir mensagem Oferta da semana' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await dialog.getByLabel('Usar uma mensagem salva (opcional)').selectOption({ label: 'Oferta da semana' });
  await expect(dialog.getByLabel('Mensagem', { exact: true })).toHaveValue('*Oferta* para {{primeiro_nome}}');
  // The preview shows it as the contact sees it: WhatsApp's bold, without the asterisks.
  const bubble = dialog.getByTestId('campaign-preview-item').first().getByTestId('whatsapp-text');
  await expect(bubble).toHaveText('Oferta para Ana');
  await expect(bubble.locator('strong')).toHaveText('Oferta');
  await page.screenshot(shot('campaigns-saved-message-1366'));
});

test('the card of a campaign waiting for business hours says the end the confirmation said', async ({ page }) => {
  test.setTimeout(60_000);
  const me = await signInCustomer(page, { prefix: 'previsao', name: 'Paulo Previsão' });
  await prepareSendingAccount(page, CONTACTS);
  // Business hours only on the day after tomorrow (São Paulo): closed now, whatever the hour of the run.
  const closedDay = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', weekday: 'long' })
    .format(new Date(Date.now() + 2 * 86_400_000))
    .toLowerCase();
  await sql(
    `update account_settings set respect_business_hours = true, business_start = '09:00', business_end = '18:00',
       business_days = $1 where user_id = (select id from users where username = $2)`,
    [[closedDay], me.username],
  );
  expect(
    (await postJson(page.request, '/api/campaigns', { name: 'Fim de semana', message: 'Oi!', targetType: 'all' })).ok(),
  ).toBe(true);

  await page.goto('/campaigns');
  const card = page.getByTestId('campaign-card').filter({ hasText: 'Fim de semana' });
  await card.getByRole('button', { name: /Enviar Campanha/ }).click();
  const confirm = page.getByRole('alertdialog');
  const summary = confirm.getByTestId('start-confirm-summary');
  await expect(summary).toContainText('término previsto em ');
  await expect(confirm.getByTestId('start-confirm-note').first()).toContainText('horário comercial (09:00 às 18:00)');
  const said = /término previsto (em \d\d\/\d\d\/\d{4} 09:0\d)/.exec((await summary.textContent()) ?? '')?.[1];
  expect(said, 'the opening day at 09:0x').toBeTruthy();
  await confirm.getByRole('button', { name: 'Confirmar' }).click();

  await expect(card.getByText('Aguardando o horário comercial para continuar.')).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText(`Término previsto ${said}`)).toBeVisible();
  await page.screenshot(shot('campaign-waiting-hours-1366'));
});
