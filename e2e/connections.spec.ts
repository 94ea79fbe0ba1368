import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { connectionSettingsFormMsg } from '../contract/connection-settings-form';
import { connectionsMsg } from '../contract/connections';
import { settingsMsg } from '../contract/settings';
import { expect, expectOk, postJson, prepareSendingAccount, putJson, shot, signInCustomer, test } from './fixtures';

/** Profissional allows 3 numbers (contract/connections.ts CONNECTION_LIMITS). */
const customer = { prefix: 'numeros', name: 'Nina Números', plan: 'professional' as const };

async function openNumbers(page: Page) {
  await page.getByRole('link', { name: 'Números' }).first().click();
  await expect(page).toHaveURL(/\/numeros$/);
  await expect(page.getByRole('heading', { name: 'Números', level: 2 })).toBeVisible();
  await expect(page.getByText(connectionsMsg.subtitle)).toBeVisible();
  // Loaded: the plan's allowance is printed once the list arrived.
  await expect(page.getByTestId('connections-usage')).toContainText('de 3 números do seu plano');
}

/** 'Adicionar número' › WhatsApp pessoal › label: leaves the pairing dialog open. */
async function addPersonal(page: Page, label: string) {
  await page.getByRole('button', { name: 'Adicionar número' }).click();
  const add = page.getByRole('dialog', { name: 'Adicionar número' });
  await add.getByLabel('Nome do número').fill(label);
  await add.getByRole('button', { name: 'Adicionar e conectar' }).click();
  await expect(page.getByRole('dialog', { name: `Conectar ${label}` })).toBeVisible();
}

function row(page: Page, label: string) {
  return page
    .getByTestId('connection-row')
    .filter({ has: page.getByRole('heading', { name: label, exact: true, level: 3 }) });
}

async function expectSeriousAxeFree(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

test('Números: add a personal number by QR code, make it the default, pause, rename, disconnect and remove it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInCustomer(page, customer);
  await openNumbers(page);

  const rows = page.getByTestId('connection-row');
  if ((await rows.count()) === 0) {
    // A new account may have no number yet: the empty state's button adds the first one, which is the default.
    await expect(page.getByText('Nenhum número cadastrado')).toBeVisible();
    await page.screenshot(shot('numeros-empty-1366'));
    await addPersonal(page, 'Principal');
    await page.getByRole('dialog', { name: 'Conectar Principal' }).getByRole('button', { name: 'Fechar' }).click();
  }
  await expect(rows).toHaveCount(1);
  const principal = rows.first();
  await expect(principal.getByText('Padrão', { exact: true })).toBeVisible();
  await page.screenshot(shot('numeros-1366'));
  await expectSeriousAxeFree(page);

  // Adicionar número › WhatsApp pessoal: created, then paired in the same dialog by QR code.
  await page.getByRole('button', { name: 'Adicionar número' }).click();
  const add = page.getByRole('dialog', { name: 'Adicionar número' });
  await expect(add.getByRole('radio', { name: 'WhatsApp pessoal (QR code)' })).toBeChecked();
  // The contract's validation, before anything is sent.
  await add.getByRole('button', { name: 'Adicionar e conectar' }).click();
  await expect(add.getByText(connectionsMsg.labelRequired)).toBeVisible();
  // Cloud API shows the credentials fields, with the labels of the API WhatsApp panel.
  await add.getByRole('radio', { name: 'API oficial (Cloud API)' }).click();
  await expect(add.getByLabel('Access Token *')).toBeVisible();
  await expect(add.getByLabel('Phone Number ID *')).toBeVisible();
  await page.screenshot(shot('numeros-add-cloud-1366'));
  await add.getByRole('radio', { name: 'WhatsApp pessoal (QR code)' }).click();
  await expect(add.getByLabel('Access Token *')).toHaveCount(0);
  await add.getByLabel('Nome do número').fill('Vendas');
  await add.getByRole('button', { name: 'Adicionar e conectar' }).click();

  const pairing = page.getByRole('dialog', { name: 'Conectar Vendas' });
  const qr = pairing.getByTestId('whatsapp-qr');
  await expect(qr).toBeVisible({ timeout: 10_000 });
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await page.screenshot(shot('numeros-qr-1366'));
  // The simulated phone scans it by itself.
  await expect(pairing.getByTestId('pairing-done')).toContainText('Número conectado!', { timeout: 20_000 });
  await expect(pairing.getByTestId('pairing-done')).toContainText(/\+\d{2} \d{2} \d{4,5}-\d{4}/, { timeout: 10_000 });
  await page.screenshot(shot('numeros-connected-1366'));
  await pairing.getByRole('button', { name: 'Concluir' }).click();
  await expect(pairing).toHaveCount(0);

  await expect(rows).toHaveCount(2);
  const vendas = row(page, 'Vendas');
  await expect(vendas.getByTestId('connection-status')).toHaveText('Conectado', { timeout: 10_000 });
  await expect(vendas.getByTestId('connection-phone')).toHaveText(/\+\d{2} \d{2} \d{4,5}-\d{4}/);
  await expect(vendas.getByTestId('connection-health')).toHaveText('Saudável');
  await expect(vendas.getByTestId('connection-today')).toHaveText(/^Hoje: \d+ de \d+/);

  // Tornar padrão: the badge moves to Vendas and its button goes away.
  await vendas.getByRole('button', { name: 'Tornar padrão' }).click();
  await expect(vendas.getByText('Padrão', { exact: true })).toBeVisible();
  await expect(vendas.getByRole('button', { name: /Tornar padrão/ })).toHaveCount(0);
  await expect(principal.getByText('Padrão', { exact: true })).toHaveCount(0);

  // Pausar / Retomar.
  await vendas.getByRole('button', { name: 'Pausar' }).click();
  await expect(vendas.getByText('Pausado', { exact: true })).toBeVisible();
  await vendas.getByRole('button', { name: 'Retomar' }).click();
  await expect(vendas.getByText('Pausado', { exact: true })).toHaveCount(0);
  await vendas.getByRole('button', { name: 'Pausar' }).click();
  await expect(vendas.getByText('Pausado', { exact: true })).toBeVisible();
  await page.screenshot(shot('numeros-two-rows-1366'));

  // Renomear, with the contract's validation.
  await vendas.getByRole('button', { name: 'Renomear' }).click();
  const rename = page.getByRole('dialog', { name: 'Renomear número' });
  await expect(rename.getByLabel('Nome do número')).toHaveValue('Vendas');
  await rename.getByLabel('Nome do número').fill('');
  await rename.getByRole('button', { name: 'Salvar' }).click();
  await expect(rename.getByText(connectionsMsg.labelRequired)).toBeVisible();
  await rename.getByLabel('Nome do número').fill('Vendas SP');
  await rename.getByRole('button', { name: 'Salvar' }).click();
  await expect(rename).toHaveCount(0);
  const renamed = row(page, 'Vendas SP');
  await expect(renamed).toBeVisible();

  // Desconectar asks first; then the number waits for a new QR code.
  await renamed.getByRole('button', { name: 'Desconectar' }).click();
  const disconnect = page.getByRole('alertdialog', { name: 'Desconectar número?' });
  await disconnect.getByRole('button', { name: 'Desconectar' }).click();
  await expect(disconnect).toHaveCount(0);
  await expect(renamed.getByTestId('connection-status')).toHaveText('Desconectado');
  await expect(renamed.getByRole('button', { name: /^Conectar/ })).toBeVisible();

  // The first number takes the default back, so Vendas SP is a plain number when it goes.
  await principal.getByRole('button', { name: 'Tornar padrão' }).click();
  await expect(principal.getByText('Padrão', { exact: true })).toBeVisible();

  // Remover asks first, then the row is gone.
  await renamed.getByRole('button', { name: 'Remover' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remover número?' });
  await expect(confirm).toContainText(connectionsMsg.confirmRemove);
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Remover' }).click();
  await confirm.getByRole('button', { name: 'Remover' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(row(page, 'Vendas SP')).toHaveCount(0);
});

test('Números on a phone-sized screen: no horizontal scroll, the actions and the add dialog reachable', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInCustomer(page, customer);
  const created = await postJson(page.request, '/api/connections', { kind: 'personal', label: 'Principal' });
  expect(created.status()).toBe(201);
  await page.goto('/numeros');
  await expect(page.getByRole('heading', { name: 'Números', level: 2 })).toBeVisible();
  await expect(page.getByTestId('connections-usage')).toContainText('de 3 números do seu plano');
  await page.screenshot(shot('numeros-390'));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Every action of the row fits the screen's width (they wrap instead of overflowing).
  const principal = row(page, 'Principal');
  for (const name of [/^Conectar/, /^Pausar/, /^Renomear/, /^Remover/]) {
    const box = await principal.getByRole('button', { name }).boundingBox();
    expect(box, String(name)).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), String(name)).toBeLessThanOrEqual(390);
  }

  await page.getByRole('button', { name: 'Adicionar número' }).click();
  const add = page.getByRole('dialog', { name: 'Adicionar número' });
  await add.getByRole('radio', { name: 'API oficial (Cloud API)' }).click();
  await expect(add.getByLabel('App Secret (opcional, necessário para o webhook)')).toBeVisible();
  await page.screenshot(shot('numeros-add-390'));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await add.getByRole('button', { name: 'Cancelar' }).click();
  await expect(add).toHaveCount(0);
});

test('Números on Básico: one number, then the add button waits for an upgrade, with the plans link', async ({
  page,
}) => {
  await signInCustomer(page, { prefix: 'numbasico', name: 'Beto Básico', plan: 'basic' });
  await page.goto('/numeros');
  await expect(page.getByTestId('connections-usage')).toContainText('de 1 número do seu plano');
  const rows = page.getByTestId('connection-row');
  if ((await rows.count()) === 0) {
    // No number yet: add one (its pairing can wait).
    await addPersonal(page, 'Principal');
    const pairing = page.getByRole('dialog', { name: 'Conectar Principal' });
    await pairing.getByRole('button', { name: 'Fechar' }).click();
    await expect(pairing).toHaveCount(0);
  }
  await expect(rows).toHaveCount(1);

  await expect(page.getByRole('button', { name: 'Adicionar número' })).toBeDisabled();
  const note = page.getByTestId('connections-limit');
  await expect(note).toContainText(connectionsMsg.limitReached(1));
  await expect(page.getByRole('button', { name: 'Adicionar número' })).toHaveAccessibleDescription(
    new RegExp(connectionsMsg.limitReached(1).slice(0, 30)),
  );
  await page.screenshot(shot('numeros-limit-1366'));

  // The server holds the limit too, with the same words.
  const res = await postJson(page.request, '/api/connections', { kind: 'personal', label: 'Extra' });
  expect(res.status()).toBe(403);
  expect((await res.json()).message).toBe(connectionsMsg.limitReached(1));

  await note.getByRole('link', { name: 'Ver planos' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=planos$/);
});

/** Six contacts on WhatsApp: the simulator treats numbers ending in 0 as not on WhatsApp, these end in 1. */
const SIX_CONTACTS = ['11', '21', '31', '41', '51', '61'].map((end, i) => ({
  name: `Contato ${i + 1}`,
  phone: `(21) 99888-00${end}`,
}));

test('a campaign over two numbers: the picker, the send split between them and the report per number', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInCustomer(page, { prefix: 'doisnum', name: 'Duda Dois Números', plan: 'professional' });
  // The default number, connected through the single-number route as before.
  await prepareSendingAccount(page, SIX_CONTACTS);

  // A second personal number, paired by QR code on the 'Números' page.
  await page.goto('/numeros');
  await expect(page.getByTestId('connections-usage')).toContainText('de 3 números do seu plano');
  await addPersonal(page, 'Vendas');
  const pairing = page.getByRole('dialog', { name: 'Conectar Vendas' });
  await expect(pairing.getByTestId('pairing-done')).toContainText(/\+\d{2} \d{2} \d{4,5}-\d{4}/, { timeout: 20_000 });
  await pairing.getByRole('button', { name: 'Concluir' }).click();
  await expect(page.getByTestId('connection-row')).toHaveCount(2);
  const vendas = row(page, 'Vendas');
  await expect(vendas.getByTestId('connection-status')).toHaveText('Conectado', { timeout: 10_000 });

  // The chatbot may be switched off on one number.
  const bot = vendas.getByRole('switch', { name: /Chatbot neste número/ });
  const botWasOn = (await bot.getAttribute('aria-checked')) === 'true';
  await bot.click();
  await expect(bot).toHaveAttribute('aria-checked', botWasOn ? 'false' : 'true');
  await bot.click();
  await expect(bot).toHaveAttribute('aria-checked', botWasOn ? 'true' : 'false');

  // The dashboard's card lists both numbers, the default marked, with the way to manage them.
  await page.goto('/dashboard');
  const numbers = page.getByTestId('whatsapp-number');
  await expect(numbers).toHaveCount(2);
  await expect(numbers.filter({ hasText: 'Vendas' })).toContainText('Conectado');
  await expect(page.getByTestId('whatsapp-numbers').getByText('Padrão', { exact: true })).toHaveCount(1);
  await page.getByTestId('whatsapp-numbers').scrollIntoViewIfNeeded();
  await page.screenshot(shot('dashboard-numbers-1366'));
  await page.getByRole('link', { name: 'Gerenciar números' }).click();
  await expect(page).toHaveURL(/\/numeros$/);

  // 'Nova Campanha' › 'Escolher números' › 'Todos os conectados': both, with their capacity today.
  await page.goto('/campaigns');
  await page.getByRole('main').getByRole('button', { name: 'Nova Campanha' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nova Campanha' });
  await dialog.getByLabel('Nome da campanha').fill('Dois números');
  await dialog.getByLabel('Mensagem', { exact: true }).fill('Olá {{primeiro_nome}}, novidades!');
  const picker = dialog.getByTestId('campaign-numbers');
  await expect(picker.getByRole('radio', { name: 'Número padrão' })).toBeChecked();
  await picker.getByRole('radio', { name: 'Escolher números' }).click();
  const options = picker.getByTestId('campaign-number-option');
  await expect(options).toHaveCount(2);
  await expect(options.filter({ hasText: 'Vendas' })).toContainText(/Hoje: \d+ de [\d.]+/);
  await picker.getByRole('button', { name: 'Todos os conectados' }).click();
  await expect(picker.getByRole('checkbox', { checked: true })).toHaveCount(2);
  await expect(picker.getByTestId('campaign-numbers-capacity')).toHaveText(
    /^Capacidade hoje dos números escolhidos: [\d.]+ mensagens$/,
  );
  await picker.scrollIntoViewIfNeeded();
  await page.screenshot(shot('campaign-numbers-picker-1366'));
  const pickerAxe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(pickerAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await picker.scrollIntoViewIfNeeded();
  await page.screenshot(shot('campaign-numbers-picker-390'));
  const pickerBox = await picker.boundingBox();
  expect((pickerBox?.x ?? 0) + (pickerBox?.width ?? 0)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1366, height: 850 });
  // Nothing chosen: the form says so before anything is sent.
  for (const box of await picker.getByRole('checkbox').all()) await box.uncheck();
  await expect(picker.getByTestId('campaign-numbers-capacity')).toHaveText(
    'Capacidade hoje dos números escolhidos: 0 mensagens',
  );
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(picker.getByText('Escolha ao menos um número ou use o número padrão.')).toBeVisible();
  await picker.getByRole('button', { name: 'Todos os conectados' }).click();
  await expect(picker.getByText('Escolha ao menos um número ou use o número padrão.')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Criar Campanha' }).click();
  await expect(page.getByText('Campanha criada com sucesso.').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  // Editing shows the saved choice.
  const card = page.getByTestId('campaign-card').filter({ hasText: 'Dois números' });
  await card.getByRole('button', { name: /Editar/ }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Campanha' });
  await expect(edit.getByRole('radio', { name: 'Escolher números' })).toBeChecked();
  await expect(edit.getByRole('checkbox', { checked: true })).toHaveCount(2);
  await edit.getByRole('button', { name: 'Cancelar' }).click();
  await expect(edit).toBeHidden();

  // Send: the confirmation names both numbers; the campaign completes.
  await card.getByRole('button', { name: /Enviar Campanha/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('6 destinatários pelos números');
  await expect(confirm).toContainText('Capacidade hoje dos números escolhidos');
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expect(card.getByText('Concluída')).toBeVisible({ timeout: 60_000 });

  // The report: one row per number, their sent messages adding up to the six contacts.
  await card.getByRole('button', { name: /Relatório/ }).click();
  const report = page.getByRole('dialog', { name: 'Relatório da campanha' });
  const perNumber = report.getByRole('table', { name: 'Envios da campanha por número' });
  await expect(perNumber).toBeVisible();
  await expect(report.getByRole('heading', { name: 'Por número' })).toBeVisible();
  const lines = perNumber.getByTestId('number-row');
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: 'Vendas' })).toHaveCount(1);
  const sent = (await perNumber.getByTestId('number-sent').allTextContents()).map(Number);
  expect(sent.reduce((a, b) => a + b, 0)).toBe(6);
  await expect(report.getByTestId('recipient-number').first()).toContainText(/\+55 \d{2} \d{4,5}-\d{4}/);
  await page.screenshot(shot('campaign-numbers-report-1366'));

  // On a phone the per-number table turns into cards, still one per number.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(report.getByTestId('number-row')).toHaveCount(2);
  await page.screenshot(shot('campaign-numbers-report-390'));
  const reportBox = await report.getByTestId('campaign-numbers-report').boundingBox();
  expect((reportBox?.x ?? 0) + (reportBox?.width ?? 0)).toBeLessThanOrEqual(390);
});

/** A PATCH sent as the app sends it, with the page's Origin (the server refuses a cookie-carrying write without it). */
function patchJson(request: APIRequestContext, path: string, data: unknown) {
  const baseURL = test.info().project.use.baseURL ?? '';
  return request.patch(path, { data, headers: { Origin: new URL(baseURL).origin } });
}

/** The account's WhatsApp settings, so the numbers' "account" values are known. */
const ACCOUNT_SENDING = {
  autoReconnect: true,
  messageDelay: 5,
  dailyLimit: 1000,
  respectBusinessHours: false,
  businessStart: '09:00',
  businessEnd: '18:00',
};

test('Configurar envio: a number’s own daily limit and interval, then the account’s limit again', async ({ page }) => {
  test.setTimeout(60_000);
  await signInCustomer(page, { prefix: 'numenvio', name: 'Eva Envio', plan: 'professional' });
  await expectOk(putJson(page.request, '/api/settings/whatsapp', ACCOUNT_SENDING), 'WhatsApp settings');
  await expectOk(postJson(page.request, '/api/connections', { kind: 'personal', label: 'Vendas' }), 'add Vendas');
  await page.goto('/numeros');
  await expect(page.getByTestId('connections-usage')).toContainText('de 3 números do seu plano');
  const vendas = row(page, 'Vendas');
  // The card's limit is the account's while the number has none of its own.
  await expect(vendas.getByTestId('connection-today')).toHaveText('Hoje: 0 de 1.000');

  await vendas.getByRole('button', { name: /^Configurar envio/ }).click();
  const dialog = page.getByRole('dialog', { name: connectionSettingsFormMsg.title });
  const limit = dialog.getByLabel('Limite diário de mensagens');
  const delay = dialog.getByLabel('Intervalo entre mensagens (s)');
  const limitFromAccount = dialog.getByRole('checkbox', {
    name: `${connectionSettingsFormMsg.useAccount} (limite diário)`,
  });
  const delayFromAccount = dialog.getByRole('checkbox', {
    name: `${connectionSettingsFormMsg.useAccount} (intervalo entre mensagens)`,
  });
  // Every field follows the account at first: the numbers empty, the account's value as placeholder and hint.
  await expect(limitFromAccount).toBeChecked();
  await expect(limit).toBeDisabled();
  await expect(limit).toHaveValue('');
  await expect(limit).toHaveAttribute('placeholder', '1.000');
  await expect(dialog.getByText('Configuração da conta: 1.000 mensagens.')).toBeVisible();
  await expect(delay).toHaveAttribute('placeholder', '5');
  await expect(dialog.getByRole('switch', { name: 'Aquecimento do número' })).toBeDisabled();
  await expect(dialog.getByRole('switch', { name: 'Aquecimento do número' })).toHaveAttribute('aria-checked', 'true');

  // Unticking starts from the account's value.
  await limitFromAccount.uncheck();
  await expect(limit).toBeEnabled();
  await expect(limit).toHaveValue('1000');
  await limit.fill('250');
  await delayFromAccount.uncheck();
  await delay.fill('0');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText(settingsMsg.messageDelayRange)).toBeVisible();
  await page.screenshot(shot('numeros-envio-1366'));
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot(shot('numeros-envio-390'));
  const box = await dialog.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1366, height: 850 });
  await delay.fill('10');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(vendas.getByTestId('connection-today')).toHaveText('Hoje: 0 de 250');

  // Reopened: the number's own values.
  await vendas.getByRole('button', { name: /^Configurar envio/ }).click();
  await expect(limitFromAccount).not.toBeChecked();
  await expect(limit).toHaveValue('250');
  await expect(delayFromAccount).not.toBeChecked();
  await expect(delay).toHaveValue('10');

  // Back to the account's limit: the field empties and the card's limit is the account's again.
  await limitFromAccount.check();
  await expect(limit).toBeDisabled();
  await expect(limit).toHaveValue('');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(vendas.getByTestId('connection-today')).toHaveText('Hoje: 0 de 1.000');
  const saved = await (await page.request.get('/api/connections')).json();
  const own = saved.connections.find((c: { label: string }) => c.label === 'Vendas').settings;
  expect(own).toEqual({ messageDelay: 10 });

  await vendas.getByRole('button', { name: /^Configurar envio/ }).click();
  await expect(limitFromAccount).toBeChecked();
  await expect(delay).toHaveValue('10');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toHaveCount(0);
});

/** Waits until a personal number is paired by the simulator (it scans the QR code by itself). */
async function waitConnected(request: APIRequestContext, id: string) {
  await expect
    .poll(
      async () => {
        const c = await (await request.get(`/api/connections/${id}`)).json();
        return c.status === 'connected' && Boolean(c.phoneNumber);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

test('Conversas with two numbers: each conversation names its number, and the Número filter', async ({ page }) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'inboxnum', name: 'Ivo Inbox', plan: 'professional' });
  // The default number, connected through the single-number route, then named Vendas.
  await expectOk(postJson(page.request, '/api/whatsapp/connect', {}), 'WhatsApp connect');
  const first = (await (await page.request.get('/api/connections')).json()).connections[0];
  await waitConnected(page.request, first.id);
  await expectOk(patchJson(page.request, `/api/connections/${first.id}`, { label: 'Vendas' }), 'rename');
  const created = await expectOk(
    postJson(page.request, '/api/connections', { kind: 'personal', label: 'Suporte' }),
    'add Suporte',
  );
  const suporte = (await created.json()).connection.id as string;
  await expectOk(postJson(page.request, `/api/connections/${suporte}/connect`, {}), 'connect Suporte');
  await waitConnected(page.request, suporte);

  // The simulator receives on the default number, or on the one named: one contact writes to Vendas, another to Suporte.
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/inbound', { from: '5521998770011', text: 'Quero comprar' }),
    'inbound Vendas',
  );
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/inbound', {
      from: '5521998770021',
      text: 'Preciso de ajuda',
      connectionId: suporte,
    }),
    'inbound Suporte',
  );

  await page.goto('/conversations');
  const items = page.getByTestId('conversation-item');
  await expect(items).toHaveCount(2, { timeout: 10_000 });
  // With several numbers the sidebar counts them, and leads to Números.
  await expect(page.getByTestId('whatsapp-numbers-pill')).toHaveText('WhatsApp:2 de 2 online');
  await expect(items.filter({ hasText: 'Quero comprar' }).getByTestId('conversation-item-number')).toHaveText(
    'Número: Vendas',
  );
  await expect(items.filter({ hasText: 'Preciso de ajuda' }).getByTestId('conversation-item-number')).toHaveText(
    'Número: Suporte',
  );

  const filter = page.getByLabel('Número', { exact: true });
  await expect(filter).toHaveValue('');
  await filter.selectOption({ label: 'Suporte' });
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('Preciso de ajuda');
  await items.first().click();
  await expect(page.getByTestId('conversation-number')).toHaveText('via Suporte');
  await page.screenshot(shot('conversas-numeros-1366'));
  await filter.selectOption({ label: 'Todos os números' });
  await expect(items).toHaveCount(2);

  // The first contact writes to Suporte too: a second conversation, on that number, apart from Vendas's.
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/inbound', {
      from: '5521998770011',
      text: 'E o suporte?',
      connectionId: suporte,
    }),
    'inbound Suporte from the Vendas contact',
  );
  await expect(items).toHaveCount(3, { timeout: 10_000 });
  await items.filter({ hasText: 'Quero comprar' }).click();
  await expect(page.getByTestId('conversation-number')).toHaveText('via Vendas');
  await expect(page).toHaveURL(new RegExp(`number=${first.id}`));
  await page.getByPlaceholder('Escreva uma mensagem...').fill('Aqui é o time de vendas.');
  await page.getByRole('button', { name: 'Enviar' }).click();
  const messages = page.getByTestId('conversation-message');
  await expect(messages.filter({ hasText: 'Aqui é o time de vendas.' })).toHaveCount(1);
  await expect(messages.filter({ hasText: 'E o suporte?' })).toHaveCount(0);
  await items.filter({ hasText: 'E o suporte?' }).click();
  await expect(page.getByTestId('conversation-number')).toHaveText('via Suporte');
  await expect(page).toHaveURL(new RegExp(`number=${suporte}`));
  await expect(messages.filter({ hasText: 'E o suporte?' })).toHaveCount(1);
  await expect(messages.filter({ hasText: 'Aqui é o time de vendas.' })).toHaveCount(0);
  // The answer went out through Vendas, the number of its conversation.
  const vendasThread = await (
    await page.request.get(`/api/conversations/5521998770011?connectionId=${first.id}`)
  ).json();
  expect(vendasThread.messages.at(-1)).toMatchObject({ source: 'manual', text: 'Aqui é o time de vendas.' });
  await page.screenshot(shot('conversas-por-numero-1366'));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/conversations');
  await expect(items).toHaveCount(3);
  await page.screenshot(shot('conversas-numeros-390'));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('Liberar número: WhatsApp restricts a number mid-campaign (the simulator’s fault), Números shows it, and freeing it brings it back', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'restrito', name: 'Rita Restrita', plan: 'professional' });
  await prepareSendingAccount(page, SIX_CONTACTS);
  const standard = (await (await page.request.get('/api/connections')).json()).connections[0].id as string;
  const created = await expectOk(
    postJson(page.request, '/api/connections', { kind: 'personal', label: 'Suporte' }),
    'add Suporte',
  );
  const suporte = (await created.json()).connection.id as string;
  await expectOk(postJson(page.request, `/api/connections/${suporte}/connect`, {}), 'connect Suporte');
  await waitConnected(page.request, suporte);
  // The first contact talks with Suporte, so the campaign gives that contact to Suporte (sticky sender);
  // Suporte's bot is off, so nothing else goes out from it before the campaign.
  await expectOk(patchJson(page.request, `/api/connections/${suporte}`, { botEnabled: false }), 'bot off');
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/inbound', {
      from: '5521998880011',
      text: 'Oi, Suporte',
      connectionId: suporte,
    }),
    'inbound Suporte',
  );
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/conversations?connectionId=${suporte}`)).json()).conversations.length,
    )
    .toBe(1);
  // The fault switch: Suporte's next send fails as WhatsApp fails a number it restricted (463).
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/restrict', { connectionId: suporte, code: '463' }),
    'restrict Suporte',
  );
  const campaign = await expectOk(
    postJson(page.request, '/api/campaigns', {
      name: 'Dois números, um restrito',
      message: 'Olá {{primeiro_nome}}!',
      targetType: 'all',
      targetGroups: [],
      status: 'draft',
      connectionIds: [standard, suporte],
    }),
    'campaign',
  );
  const campaignId = (await campaign.json()).id as string;
  await expectOk(postJson(page.request, `/api/campaigns/${campaignId}/send`, {}), 'send');
  await expect
    .poll(async () => (await (await page.request.get(`/api/connections/${suporte}`)).json()).status, {
      timeout: 30_000,
    })
    .toBe('restricted');

  await page.goto('/numeros');
  const restricted = row(page, 'Suporte');
  await expect(restricted.getByTestId('connection-status')).toHaveText('Restrito');
  await expect(restricted.getByTestId('connection-restriction')).toContainText('código 463');
  await expect(restricted.getByTestId('connection-health')).toHaveText('Restrito');
  await restricted.scrollIntoViewIfNeeded();
  await page.screenshot(shot('numeros-restrito-1366'));

  await restricted.getByRole('button', { name: 'Liberar número Suporte' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Liberar número?' });
  await expect(confirm).toContainText('banir o número');
  await confirm.getByRole('button', { name: 'Liberar número' }).click();
  await expect(confirm).toBeHidden();
  await expect(restricted.getByTestId('connection-status')).toHaveText('Conectado');
  await expect(restricted.getByTestId('connection-restriction')).toHaveCount(0);
  await expect(restricted.getByTestId('connection-health')).not.toHaveText('Restrito');
  await page.screenshot(shot('numeros-liberado-1366'));
  // The campaign still reached all six contacts: the default number took Suporte's share.
  await expect
    .poll(async () => (await (await page.request.get(`/api/campaigns/${campaignId}`)).json()).status, {
      timeout: 30_000,
    })
    .toBe('completed');
});

test('the dashboard’s WhatsApp quick action, with two numbers, connects and disconnects the one chosen', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInCustomer(page, { prefix: 'atalho', name: 'Ana Atalho', plan: 'professional' });
  await expectOk(postJson(page.request, '/api/whatsapp/connect', {}), 'WhatsApp connect');
  const standard = (await (await page.request.get('/api/connections')).json()).connections[0].id as string;
  await waitConnected(page.request, standard);
  await expectOk(postJson(page.request, '/api/connections', { kind: 'personal', label: 'Suporte' }), 'add Suporte');

  await page.goto('/dashboard');
  const quick = page.getByTestId('whatsapp-quick-action');
  await expect(quick).toHaveText('WhatsApp: 1 de 2 conectados');
  await quick.click();
  const chooser = page.getByRole('dialog', { name: 'Qual número?' });
  await expect(chooser.getByTestId('choose-number')).toHaveCount(2);
  // The default number is connected: only 'Desconectar' for it; Suporte offers 'Conectar'.
  await expect(chooser.getByRole('button', { name: 'Desconectar WhatsApp pessoal' })).toBeVisible();
  await page.screenshot(shot('dashboard-choose-number-1366'));
  await chooser.getByRole('button', { name: 'Conectar Suporte' }).click();
  const pairing = page.getByRole('dialog', { name: 'Conectar Suporte' });
  await expect(pairing.getByTestId('pairing-done')).toContainText(/\+\d{2} \d{2} \d{4,5}-\d{4}/, { timeout: 20_000 });
  await pairing.getByRole('button', { name: 'Concluir' }).click();
  await expect(quick).toHaveText('WhatsApp: 2 de 2 conectados');

  // Disconnecting Suporte leaves the default number connected.
  await quick.click();
  await chooser.getByRole('button', { name: 'Desconectar Suporte' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Desconectar Suporte?' });
  await confirm.getByRole('button', { name: 'Desconectar' }).click();
  await expect(confirm).toBeHidden();
  await expect(quick).toHaveText('WhatsApp: 1 de 2 conectados');
  expect((await (await page.request.get(`/api/connections/${standard}`)).json()).status).toBe('connected');

  await page.setViewportSize({ width: 390, height: 844 });
  await quick.click();
  await expect(chooser).toBeVisible();
  // The dialog as the phone shows it once it finished opening (the viewport: a full-page capture shifts fixed layers).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: 'e2e/screenshots/dashboard-choose-number-390.png' });
  const box = await chooser.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
